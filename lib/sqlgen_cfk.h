/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sqlgen_cfk.h - the SQL of a build whose deployment targets Confluent
 * for Kubernetes (management: cfk): CMF's dialect, one statement per
 * FlinkStatement, in the order they are applied:
 *
 *	source	CREATE TABLE IF NOT EXISTS <cat>.`default`.`<build>__source_<hex>`
 *		the Kafka source, 'connector' = 'kafka' with its options
 *	sink	CREATE TABLE IF NOT EXISTS <cat>.`default`.`<build>__sink_<hex>`
 *		the Iceberg table, 'connector' = 'iceberg' with the REST
 *		catalog's options on the table itself
 *	insert	INSERT INTO the sink (...) WITH `source_events` AS (SELECT *
 *		FROM the source) SELECT ...: the operator target's query
 *
 * <cat> is the environment's catalog, `_env_<flinkEnvironment>`, the one
 * CMF catalog that holds tables of connectors other than Kafka's; <hex>
 * is 12 hex digits of the digest of the table's definition after its
 * name, so a changed table is a table of another name (CMF keeps a
 * table's options; CREATE TABLE IF NOT EXISTS would not change them).
 * No SET, CREATE CATALOG, CREATE DATABASE, temporary table or view:
 * each statement runs on its own.  Every identifier and literal goes
 * through sqlq.h.
 */
#ifndef FLUID_SQLGEN_CFK_H
#define FLUID_SQLGEN_CFK_H

#include <stdbool.h>
#include <jansson.h>

#include "diag.h"

/* Hex digits of a definition's digest in a table's name. */
#define SQLGEN_CFK_HEX	12

/* Whether checked build b's deployment targets CFK. */
bool	 sqlgen_cfk_target(const json_t *b);
/*
 * The statements of checked build b: a new JSON array of {"role":
 * "source"|"sink"|"insert", "sql": "..."}, each ending in ";\n", or NULL
 * after an error in d (the IR holds what CMF cannot run, or what no
 * quoting can make safe).
 */
json_t	*sqlgen_cfk_build(const json_t *b, struct diags *d);

#endif
