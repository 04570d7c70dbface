/*
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
 *    as JSON, and has the digest of its content;
 *  - with every allowlist empty, no plan is admitted: plan_allow()
 *    refuses at least the kube context of every build (and a plan with
 *    no build has nothing to write);
 *  - every diagnostic is one line of printable UTF-8 (fuzz.h).
 */
#include "fuzz.h"
#include "plan.h"

static char *
no_env(const char *name)
{
	(void)name;
	return NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum k8s_mode modes[] = { K8S_AMEND,
	    K8S_AMEND_AND_BUILD, K8S_CREATE_ONLY, K8S_DRY_RUN };
	char digest[DIGEST_STRLEN];
	json_t *plan, *remade;
	json_error_t err;
	struct allow al;
	struct diags d;
	size_t before;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	plan = json_loadb((const char *)data + 1, size - 1,
	    JSON_REJECT_DUPLICATES, &err);
	if (plan == NULL)
		return 0;
	if ((data[0] & 1) && json_is_object(plan))
		k8s_plan_seal(plan);
	diags_init(&d);
	remade = plan_remake(plan, modes[(data[0] >> 1) & 3], "plan.json",
	    &d);
	if (remade != NULL) {
		if (!json_equal(remade, plan))
			fuzz_fail("an accepted plan is not the plan made again");
		k8s_plan_digest(plan, digest);
		if (!json_is_string(json_object_get(plan, "digest")) ||
		    strcmp(json_string_value(json_object_get(plan, "digest")),
		    digest) != 0)
			fuzz_fail("an accepted plan without its own digest");
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
