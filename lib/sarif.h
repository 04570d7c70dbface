/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sarif.h - SARIF 2.1.0 logs (OASIS Static Analysis Results Interchange
 * Format), the report GitHub code scanning and other CI servers show
 * on the lines of a pull request, for fluid validate --sarif: one
 * result per diagnostic.
 *
 * A result's ruleId is the stage that found it: "fluid-resolve" (the
 * YAML, $ref and the workspace), "fluid-check" (the static rules) or
 * any other stage name; the log lists each under tool.driver.rules.
 * Its level is "error" or "warning" (a usage or environment error, such
 * as an unreadable file, is an "error").  A result placed in a file has
 * artifactLocation.uri (the path, percent-encoded as a relative URI
 * reference) and, when the line is known, region.startLine and
 * startColumn; a result placed nowhere names its contract's file.
 */
#ifndef FLUID_SARIF_H
#define FLUID_SARIF_H

#include <jansson.h>

#include "diag.h"

/* An empty log of the tool driver, version version (a new reference). */
json_t	*sarif_new(const char *driver, const char *version);
/*
 * Add d's diagnostics, found by stage rule, about contract (the file a
 * diagnostic placed nowhere is about).
 */
void	sarif_add(json_t *log, const struct diags *d, const char *rule,
	    const char *contract);
/* The log as text, ending in a newline (a new string). */
char	*sarif_text(const json_t *log);

#endif
