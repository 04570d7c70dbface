/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * scale.c - a checked deployment's sizing with its defaults (see
 * scale.h).
 */
#include <stdio.h>
#include <string.h>

#include "scale.h"
#include "xalloc.h"

/* What fluid-check allows (check_scale.c): key groups at most 2^15. */
#define KEY_GROUPS_MAX	32768

/* A whole number at key of o from 1 to KEY_GROUPS_MAX, or def. */
static bool
count(const json_t *o, const char *key, json_int_t def, json_int_t *v)
{
	const json_t *j = json_object_get(o, key);

	*v = def;
	if (j == NULL)
		return true;
	if (!json_is_integer(j) || json_integer_value(j) < 1 ||
	    json_integer_value(j) > KEY_GROUPS_MAX)
		return false;
	*v = json_integer_value(j);
	return true;
}

/* A Flink memory size: digits and a unit of letters, as checked. */
static bool
memory(const char *m)
{
	size_t i, n = strlen(m);

	for (i = 0; i < n && m[i] >= '0' && m[i] <= '9'; i++)
		;
	if (i == 0 || n - i > 2)
		return false;
	for (; i < n; i++)
		if (!((m[i] >= 'a' && m[i] <= 'z') || (m[i] >= 'A' &&
		    m[i] <= 'Z')))
			return false;
	return true;
}

static const char *
pod(const json_t *dep, const char *key, struct scale_pod *p)
{
	const json_t *o = json_object_get(dep, key), *v;

	p->memory = SCALE_MEMORY;
	p->cpu = json_integer(SCALE_CPU);
	if (o == NULL)
		return NULL;
	if (!json_is_object(o))
		return key;
	if ((v = json_object_get(o, "memory")) != NULL) {
		if (!json_is_string(v) || !memory(json_string_value(v)))
			return strcmp(key, "jobManager") == 0 ?
			    "jobManager/memory" : "taskManager/memory";
		p->memory = json_string_value(v);
	}
	if ((v = json_object_get(o, "cpu")) != NULL) {
		if (!json_is_number(v) || json_number_value(v) <= 0)
			return strcmp(key, "jobManager") == 0 ?
			    "jobManager/cpu" : "taskManager/cpu";
		json_decref(p->cpu);
		p->cpu = json_deep_copy(v);
	}
	return NULL;
}

static const char *
autoscaler(const json_t *dep, struct scale *s)
{
	const json_t *a = json_object_get(dep, "autoscaler"), *v;

	s->as_min = 1;
	s->as_max = s->max_parallelism;
	s->as_target = SCALE_UTILIZATION;
	if (a == NULL)
		return NULL;
	s->autoscaler = true;
	if (!json_is_object(a))
		return "autoscaler";
	v = json_object_get(a, "enabled");
	if (v != NULL && !json_is_boolean(v))
		return "autoscaler/enabled";
	s->as_enabled = json_is_true(v);
	if (!count(a, "minParallelism", 1, &s->as_min))
		return "autoscaler/minParallelism";
	if (!count(a, "maxParallelism", s->max_parallelism, &s->as_max) ||
	    s->as_max > s->max_parallelism || s->as_max < s->as_min)
		return "autoscaler/maxParallelism";
	if ((v = json_object_get(a, "targetUtilization")) != NULL) {
		if (!json_is_number(v) || json_number_value(v) <= 0 ||
		    json_number_value(v) > 1)
			return "autoscaler/targetUtilization";
		s->as_target = json_number_value(v);
	}
	return NULL;
}

const char *
scale_read(const json_t *dep, struct scale *s)
{
	const json_t *tm = json_object_get(dep, "taskManager");
	const char *bad = NULL;

	memset(s, 0, sizeof(*s));
	if (!count(dep, "maxParallelism", SCALE_MAX_PARALLELISM,
	    &s->max_parallelism))
		bad = "maxParallelism";
	else if (!count(dep, "parallelism", SCALE_PARALLELISM,
	    &s->parallelism) || s->parallelism > s->max_parallelism)
		bad = "parallelism";
	else if (!count(tm, "slots", SCALE_SLOTS, &s->slots))
		bad = "taskManager/slots";
	if (bad == NULL)
		bad = pod(dep, "taskManager", &s->tm);
	if (bad == NULL)
		bad = pod(dep, "jobManager", &s->jm);
	if (bad == NULL)
		bad = autoscaler(dep, s);
	if (bad != NULL)
		scale_release(s);
	return bad;
}

void
scale_release(struct scale *s)
{
	json_decref(s->tm.cpu);
	json_decref(s->jm.cpu);
	s->tm.cpu = s->jm.cpu = NULL;
}

static void
set_int(json_t *conf, const char *key, json_int_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	json_object_set_new(conf, key, json_string(buf));
}

const char *
scale_idle_timeout(const struct scale *s)
{
	if (s->parallelism > 1 || (s->as_enabled && s->as_max > 1))
		return SCALE_IDLE_TIMEOUT;
	return NULL;
}

void
scale_flink_conf(const struct scale *s, json_t *conf)
{
	char buf[32];

	set_int(conf, "taskmanager.numberOfTaskSlots", s->slots);
	set_int(conf, "pipeline.max-parallelism", s->max_parallelism);
	if (scale_idle_timeout(s) != NULL)
		json_object_set_new(conf, "table.exec.source.idle-timeout",
		    json_string(scale_idle_timeout(s)));
	if (!s->autoscaler)
		return;
	json_object_set_new(conf, "job.autoscaler.enabled",
	    json_string(s->as_enabled ? "true" : "false"));
	set_int(conf, "job.autoscaler.vertex.min-parallelism", s->as_min);
	set_int(conf, "job.autoscaler.vertex.max-parallelism", s->as_max);
	snprintf(buf, sizeof(buf), "%g", s->as_target);
	json_object_set_new(conf, "job.autoscaler.utilization.target",
	    json_string(buf));
}

json_t *
scale_resource(const struct scale_pod *p)
{
	return json_pack("{s:s, s:O}", "memory", p->memory, "cpu", p->cpu);
}
