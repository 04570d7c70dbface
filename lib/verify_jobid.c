/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * verify_jobid.c - what a Flink JobID looks like (verify_int.h).  Both
 * the operator's status (verify_status.c) and the checkpoint piece
 * (verify_checkpoint.c) check one before using it; it sits below both,
 * so that the checkpoint piece depends on the status piece one way.
 */
#include <stdbool.h>
#include <stddef.h>

#include "verify_int.h"

bool
vfy_job_id(const char *s)
{
	size_t i;

	for (i = 0; i < 32; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		    (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return s[32] == '\0';
}
