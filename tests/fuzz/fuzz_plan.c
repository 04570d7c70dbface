/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz_plan.c - a plan as apply reads it (plan.h): parsed, made again
 * from its bundle and compared (plan_remake()), sized (plan_sizes())
 * and checked against empty allowlists (plan_allow()), with no kubectl.
 *
 * The input is one byte of flags, then the plan's JSON.  Flag bit 0:
 * give the plan a matching digest first (k8s_plan_seal(), as whoever
 * edits a plan can), so that the re-render and the resource checks see
 * edited plans rather than stopping at the digest; bits 1-2: the mode
 * apply is given.  Properties:
 *
 *  - a plan that plan_remake() accepts is the plan it made again, equal
 *    as JSON (so it has the digest of its content: that one is sealed);
 *  - with every allowlist empty, no plan is admitted: plan_allow()
 *    refuses at least the kube context of every build (and a plan with
 *    no build has nothing to write);
 *  - every diagnostic is one line of printable UTF-8 (fuzz.h).
 *
 * The render of a bundle is kept for the next input with the same
 * bundle and mode (most mutations leave the bundle alone): it is a
 * function of the two, and rendering each time made the target ten
 * times slower.
 */
#include "fuzz.h"
#include "plan.h"

static char *
no_env(const char *name)
{
	(void)name;
	return NULL;
}

/* The last bundle's render: its digest and mode, the body or NULL. */
static char	 cached_key[DIGEST_STRLEN + 2];
static json_t	*cached_body;
static int	 cached_bad;

/*
 * The body plan_remake_from() takes for plan's bundle (a new
 * reference), NULL to let it render, or *skip when the bundle is known
 * not to check.
 */
static json_t *
body_for(const json_t *plan, enum k8s_mode mode, int *skip)
{
	const json_t *bundle = json_object_get(plan, "bundle");
	char key[DIGEST_STRLEN + 2], *why = NULL;

	*skip = 0;
	if (!json_is_object(bundle) ||
	    !json_is_object(json_object_get(bundle, "document")))
		return NULL;
	digest_json(bundle, key);
	key[DIGEST_STRLEN - 1] = (char)('0' + mode);
	key[DIGEST_STRLEN] = '\0';
	if (strcmp(key, cached_key) != 0) {
		json_decref(cached_body);
		cached_body = plan_bundle_body(bundle, mode, &why);
		cached_bad = cached_body == NULL;
		free(why);
		memcpy(cached_key, key, sizeof(key));
	}
	*skip = cached_bad;
	return cached_body ? json_deep_copy(cached_body) : NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum k8s_mode modes[] = { K8S_AMEND,
	    K8S_AMEND_AND_BUILD, K8S_CREATE_ONLY, K8S_DRY_RUN };
	json_t *plan, *remade, *body;
	json_error_t err;
	struct allow al;
	struct diags d;
	size_t before;
	int skip;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	plan = json_loadb((const char *)data + 1, size - 1,
	    JSON_REJECT_DUPLICATES, &err);
	if (plan == NULL)
		return 0;
	if ((data[0] & 1) && json_is_object(plan))
		k8s_plan_seal(plan);
	diags_init(&d);
	remade = NULL;
	body = body_for(plan, modes[(data[0] >> 1) & 3], &skip);
	if (!skip)
		remade = plan_remake_from(plan, modes[(data[0] >> 1) & 3],
		    body, "plan.json", &d);
	if (remade != NULL) {
		/* remade is sealed: equal, the plan has its own digest. */
		if (!json_equal(remade, plan))
			fuzz_fail("an accepted plan is not the plan made again");
	}
	if (d.nfatal == 0) {
		allow_load(&al, no_env);
		plan_sizes(plan, NULL, "plan.json", &d);
		before = d.nerrors;
		plan_allow(plan, &al, "plan.json", &d);
		if (remade != NULL && json_array_size(json_object_get(plan,
		    "builds")) > 0 && d.nerrors == before)
			fuzz_fail("empty allowlists admitted a plan");
		allow_release(&al);
	}
	fuzz_check_diags(&d);
	diags_release(&d);
	json_decref(remade);
	json_decref(plan);
	return 0;
}
