/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * stage_k8s.c - what fluid-k8s render does to the document (see
 * stage.h): the k8s section, made offline by k8s_render.c.
 */
#include "ir.h"
#include "k8s.h"
#include "stage.h"

json_t *
stage_k8s(json_t *doc, struct diags *d)
{
	json_t *section;

	diags_set_resolve(d, ir_section(doc, "resolve"));
	if ((section = k8s_render(doc, d)) != NULL)
		ir_add_stage(doc, "k8s", section);
	return section;
}
