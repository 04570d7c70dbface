/*
 * check_expose.c - the Iceberg table an expose names, and how the job
 * reaches its REST catalog.
 *
 * Credentials never appear here by value: catalogAuth names environment
 * variables that the pod (or fluid verify) resolves, and catalog
 * properties that look like credentials, or that would make Iceberg read
 * the job's environment (env:..., ${...}), are refused.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check_int.h"
#include "url.h"

static const char *const binding_keys[] = {
	"platform", "format", "location", "catalogProperties", "catalogAuth",
	"icebergConfig", NULL
};
static const char *const location_keys[] = {
	"catalog", "uri", "warehouse", "namespace", "table", NULL
};
static const char *const bearer_keys[] = { "type", "tokenEnv", NULL };
static const char *const oauth2_keys[] = {
	"type", "credentialEnv", "oauth2ServerUri", "scope", NULL
};
static const char *const iceberg_keys[] = {
	"partitionSpec", "maxSnapshotAgeSeconds", "fileFormat",
	"formatVersion", NULL
};
static const char *const partition_keys[] = { "column", "transform", NULL };
static const char *const formats[] = { "iceberg", NULL };
static const char *const catalogs[] = { "rest", NULL };
static const char *const auth_types[] = { "bearer", "oauth2", NULL };
static const char *const file_formats[] = { "parquet", "orc", "avro", NULL };

/* Properties fluid writes itself from the binding. */
static const char *const reserved_props[] = {
	"type", "catalog-type", "catalog-impl", "uri", "warehouse", "io-impl",
	"token", "credential", "oauth2-server-uri", "scope", NULL
};
/* Substrings of property names that hold credentials. */
static const char *const secret_words[] = {
	"secret", "password", "access-key", "session-token", "token",
	"credential", "private-key", NULL
};

/*
 * A URL at o[key]: parsed, of one of the schemes, without credentials
 * in it.  Returns false after an error.  *out (if not NULL) keeps the
 * parsed URL for the caller to release.
 */
static bool
url_ok(struct chk *c, struct chk_loc *l, json_t *o, const char *key,
    bool required, const char *const *schemes, struct url *out)
{
	const char *s = chk_get_str(c, l, o, key, required), *why;
	struct url u;
	size_t i;
	bool ok = true;

	if (s == NULL)
		return !required && json_object_get(o, key) == NULL;
	if (url_parse(s, &u, &why) == -1) {
		chk_err_at(c, l, key, "%s", why);
		return false;
	}
	for (i = 0; schemes[i] != NULL; i++)
		if (strcmp(u.scheme, schemes[i]) == 0)
			break;
	if (schemes[i] == NULL) {
		chk_err_at(c, l, key, "must be an %s:// URI", schemes[0]);
		ok = false;
	}
	if (u.userinfo) {
		chk_err_at(c, l, key, "must not carry credentials");
		ok = false;
	}
	if (ok && out != NULL)
		*out = u;
	else
		url_release(&u);
	return ok;
}

static bool
env_name_ok(const char *s)
{
	return path_is_ident(s);
}

static json_t *
auth_check(struct chk *c, struct chk_loc *l, json_t *binding, bool *ok,
    bool *has_auth)
{
	static const char *const https[] = { "https", NULL };
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *a = chk_get_obj(c, l, binding, "catalogAuth", false), *ir;
	const char *type, *env, *scope;
	struct url u;

	*has_auth = false;
	if (a == NULL) {
		if (json_object_get(binding, "catalogAuth") != NULL &&
		    !json_is_null(json_object_get(binding, "catalogAuth")))
			*ok = false;
		return json_null();
	}
	chk_loc_key(l, "catalogAuth");
	type = chk_get_enum(c, l, a, "type", true, auth_types);
	if (type == NULL) {
		*ok = false;
		chk_loc_reset(l, m);
		return json_null();
	}
	*has_auth = true;
	if (strcmp(type, "bearer") == 0) {
		*ok &= chk_only_keys(c, l, a, bearer_keys) == 0;
		env = chk_get_str(c, l, a, "tokenEnv", true);
		ir = json_pack("{s:s, s:s?}", "type", type, "tokenEnv", env);
	} else {
		*ok &= chk_only_keys(c, l, a, oauth2_keys) == 0;
		env = chk_get_str(c, l, a, "credentialEnv", true);
		scope = chk_get_str(c, l, a, "scope", false);
		if (scope != NULL && chk_has_control(scope)) {
			chk_err_at(c, l, "scope", "must not contain control "
			    "characters");
			*ok = false;
		}
		/* The token endpoint receives client_id:client_secret. */
		if (!url_ok(c, l, a, "oauth2ServerUri", true, https, &u))
			*ok = false;
		else
			url_release(&u);
		ir = json_pack("{s:s, s:s?, s:O?, s:s?}", "type", type,
		    "credentialEnv", env, "oauth2ServerUri",
		    json_object_get(a, "oauth2ServerUri"), "scope", scope);
	}
	if (env == NULL)
		*ok = false;
	else if (!env_name_ok(env)) {
		chk_err_at(c, l, strcmp(type, "bearer") == 0 ? "tokenEnv" :
		    "credentialEnv", "must be the name of an environment "
		    "variable, not a credential");
		*ok = false;
	}
	chk_loc_reset(l, m);
	return ir;
}

/* Whether s contains one of words. */
static bool
has_word_part(const char *s, const char *const *words)
{
	size_t i;

	for (i = 0; words[i] != NULL; i++)
		if (strstr(s, words[i]) != NULL)
			return true;
	return false;
}

/* Iceberg resolves env:NAME from the job's environment; ${ looks alike. */
static bool
text_ok(const char *s)
{
	return strncmp(s, "env:", 4) != 0 && strstr(s, "${") == NULL &&
	    !chk_has_control(s);
}

static json_t *
properties_check(struct chk *c, struct chk_loc *l, json_t *binding, bool *ok)
{
	static const char *const http[] = { "https", "http", NULL };
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *p = chk_get_obj(c, l, binding, "catalogProperties", false), *v;
	json_t *ir = json_object();
	const char *k;

	if (p == NULL) {
		if (json_object_get(binding, "catalogProperties") != NULL &&
		    !json_is_null(json_object_get(binding,
		    "catalogProperties")))
			*ok = false;
		return ir;
	}
	chk_loc_key(l, "catalogProperties");
	json_object_foreach(p, k, v) {
		struct chk_loc_mark m2 = chk_loc_mark(l);
		bool bad = true;

		chk_loc_key(l, k);
		if (!text_ok(k))
			chk_err(c, l, "a catalog property name must not start "
			    "with env:, contain ${ or a control character");
		else if (!json_is_string(v))
			chk_err(c, l, "must be a string (quote it)");
		else if (!text_ok(json_string_value(v)))
			chk_err(c, l, "must not start with env:, contain ${ or "
			    "a control character: Iceberg would resolve it "
			    "from the job's environment (only catalogAuth "
			    "references a variable)");
		else if (chk_word_index(k, reserved_props) >= 0)
			chk_err(c, l, "is set by fluid from binding.location "
			    "and catalogAuth");
		else if (has_word_part(k, secret_words))
			chk_err(c, l, "looks like a credential: credentials "
			    "never go into catalog properties; use "
			    "catalogAuth or a Secret in "
			    "deployment.secretRefs");
		else
			bad = false;
		chk_loc_reset(l, m2);
		if (!bad && strcmp(k, "s3.endpoint") == 0 &&
		    !url_ok(c, l, p, k, true, http, NULL))
			bad = true;
		if (bad)
			*ok = false;
		else
			json_object_set(ir, k, v);
	}
	chk_loc_reset(l, m);
	return ir;
}

static json_t *
partitions_check(struct chk *c, struct chk_loc *l, json_t *list,
    struct ty *schema, json_t *bad, bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *e, *ir = json_array();
	const char *col, *tr;
	struct ty_field *f;
	size_t i, j;

	chk_loc_key(l, "partitionSpec");
	if (!json_is_array(list)) {
		chk_err(c, l, "must be a list of {column, transform}");
		*ok = false;
		chk_loc_reset(l, m);
		return ir;
	}
	json_array_foreach(list, i, e) {
		struct chk_loc_mark m2 = chk_loc_mark(l);

		chk_loc_idx(l, i);
		if (!json_is_object(e)) {
			chk_err(c, l, "must be a mapping {column, transform}");
			*ok = false;
			chk_loc_reset(l, m2);
			continue;
		}
		*ok &= chk_only_keys(c, l, e, partition_keys) == 0;
		col = chk_get_str(c, l, e, "column", true);
		tr = chk_get_str(c, l, e, "transform", true);
		if (tr != NULL && strcmp(tr, "identity") != 0) {
			chk_err_at(c, l, "transform", "only identity "
			    "partitions: Iceberg's other transforms are hidden "
			    "partitioning, which Flink SQL cannot declare; "
			    "create the table with that partition spec before "
			    "the job runs and leave it out of the contract");
			tr = NULL;
		}
		if (col != NULL && schema != NULL) {
			f = ty_field(schema, col);
			/* Only a plain name is echoed: it may be SQL. */
			if (f == NULL && !path_is_ident(col))
				chk_err_at(c, l, "column", "must name a "
				    "top-level column of contract.schema (a "
				    "plain SQL identifier)");
			else if (f == NULL && chk_name_in(bad, col))
				;	/* its declaration was refused */
			else if (f == NULL)
				chk_err_at(c, l, "column", "'%s' is not a "
				    "top-level column of contract.schema",
				    col);
			else if (ty_is_container(f->type->kind))
				chk_err_at(c, l, "column", "'%s' is a struct, "
				    "array or map: partition by a primitive "
				    "column", col);
			else {
				for (j = 0; j < json_array_size(ir); j++)
					if (strcmp(json_string_value(
					    json_array_get(ir, j)), col) == 0)
						break;
				if (j < json_array_size(ir))
					chk_err_at(c, l, "column", "'%s' is "
					    "partitioned twice", col);
				else if (tr != NULL)
					json_array_append_new(ir,
					    json_string(col));
			}
		}
		if (col == NULL || tr == NULL || (schema != NULL &&
		    json_array_size(ir) == 0))
			*ok = false;
		chk_loc_reset(l, m2);
	}
	if (json_array_size(ir) != json_array_size(list))
		*ok = false;
	chk_loc_reset(l, m);
	return ir;
}

static void
iceberg_check(struct chk *c, struct chk_loc *l, json_t *binding,
    struct ty *schema, json_t *bad, json_t *table, bool *ok)
{
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *ic = chk_get_obj(c, l, binding, "icebergConfig", false), *v;
	const char *ff = NULL;
	json_int_t age = 0, fv = 2;
	int rc;

	if (ic == NULL) {
		if (json_object_get(binding, "icebergConfig") != NULL &&
		    !json_is_null(json_object_get(binding, "icebergConfig")))
			*ok = false;
		json_object_set_new(table, "partitionBy", json_array());
		json_object_set_new(table, "fileFormat",
		    json_string("parquet"));
		json_object_set_new(table, "formatVersion", json_integer(2));
		json_object_set_new(table, "maxSnapshotAgeSeconds",
		    json_null());
		return;
	}
	chk_loc_key(l, "icebergConfig");
	*ok &= chk_only_keys(c, l, ic, iceberg_keys) == 0;
	v = json_object_get(ic, "partitionSpec");
	json_object_set_new(table, "partitionBy", v && !json_is_null(v) ?
	    partitions_check(c, l, v, schema, bad, ok) : json_array());
	ff = chk_get_enum(c, l, ic, "fileFormat", false, file_formats);
	if (ff == NULL && json_object_get(ic, "fileFormat") != NULL)
		*ok = false;
	json_object_set_new(table, "fileFormat",
	    json_string(ff ? ff : "parquet"));
	if ((rc = chk_get_int(c, l, ic, "formatVersion", &fv)) == -1)
		*ok = false;
	else if (fv != 2) {
		chk_err_at(c, l, "formatVersion", "the managed lane writes "
		    "Iceberg format version 2");
		*ok = false;
	}
	json_object_set_new(table, "formatVersion", json_integer(2));
	if ((rc = chk_get_int(c, l, ic, "maxSnapshotAgeSeconds", &age)) == -1)
		*ok = false;
	else if (rc == 0 && age <= 0) {
		chk_err_at(c, l, "maxSnapshotAgeSeconds", "must be a positive "
		    "number of seconds");
		*ok = false;
	}
	json_object_set_new(table, "maxSnapshotAgeSeconds",
	    rc == 0 ? json_integer(age) : json_null());
	chk_loc_reset(l, m);
}

static const char *
name_ok(struct chk *c, struct chk_loc *l, json_t *o, const char *key)
{
	const char *s = chk_get_str(c, l, o, key, true);

	if (s != NULL && !path_is_ident(s)) {
		chk_err_at(c, l, key, "'%s' must be a plain SQL identifier",
		    chk_has_control(s) || strlen(s) > 128 ? "?" : s);
		return NULL;
	}
	return s;
}

/*
 * libcurl reads s3:///x as the host x (it allows up to three slashes),
 * but Iceberg's and Hadoop's S3 clients read an empty bucket there: the
 * text itself must have the bucket right after "s3://".
 */
bool
chk_s3_names_bucket(const char *s)
{
	return s != NULL && strncasecmp(s, "s3://", 5) == 0 &&
	    s[5] != '\0' && s[5] != '/';
}

json_t *
chk_expose_check(struct chk *c, struct chk_loc *l, json_t *expose,
    struct ty *schema, json_t *names, json_t *bad)
{
	static const char *const web[] = { "https", "http", NULL };
	static const char *const s3[] = { "s3", NULL };
	struct chk_loc_mark m = chk_loc_mark(l);
	json_t *binding, *loc, *table, *catalog, *auth, *props;
	const char *ns, *name;
	struct url u;
	bool ok = true, has_auth = false, have_uri;

	if ((binding = chk_get_obj(c, l, expose, "binding", true)) == NULL)
		return NULL;
	chk_loc_key(l, "binding");
	ok &= chk_only_keys(c, l, binding, binding_keys) == 0;
	ok &= chk_get_enum(c, l, binding, "format", true, formats) != NULL;
	if ((loc = chk_get_obj(c, l, binding, "location", true)) == NULL) {
		chk_loc_reset(l, m);
		return NULL;
	}
	auth = auth_check(c, l, binding, &ok, &has_auth);
	props = properties_check(c, l, binding, &ok);
	chk_loc_key(l, "location");
	ok &= chk_only_keys(c, l, loc, location_keys) == 0;
	ok &= chk_get_enum(c, l, loc, "catalog", true, catalogs) != NULL;
	have_uri = url_ok(c, l, loc, "uri", true, web, &u);
	if (have_uri) {
		/*
		 * Authenticated catalog requests need HTTPS, loopback
		 * included: in the pod, localhost may be an injected sidecar,
		 * which the spec does not trust with a credential either.
		 */
		if (has_auth && strcmp(u.scheme, "https") != 0) {
			chk_err_at(c, l, "uri", "must be https: the catalog "
			    "receives credentials (catalogAuth)");
			ok = false;
		}
		url_release(&u);
	} else
		ok = false;
	if (!url_ok(c, l, loc, "warehouse", true, s3, &u))
		ok = false;
	else {
		if (u.query) {
			chk_err_at(c, l, "warehouse", "must be a plain s3:// "
			    "URI without a query");
			ok = false;
		} else if (!chk_s3_names_bucket(json_string_value(
		    json_object_get(loc, "warehouse")))) {
			chk_err_at(c, l, "warehouse", "names no bucket: write "
			    "s3://BUCKET/PATH");
			ok = false;
		}
		url_release(&u);
	}
	ns = name_ok(c, l, loc, "namespace");
	name = name_ok(c, l, loc, "table");
	ok &= ns != NULL && name != NULL;
	chk_loc_reset(l, m);
	chk_loc_key(l, "binding");
	catalog = json_pack("{s:s, s:O?, s:O?, s:o, s:o}", "type", "rest",
	    "uri", json_object_get(loc, "uri"), "warehouse",
	    json_object_get(loc, "warehouse"), "properties", props,
	    "auth", auth);
	table = json_pack("{s:o, s:s?, s:s?}", "catalog", catalog,
	    "namespace", ns, "name", name);
	if (schema != NULL)
		json_object_set_new(table, "columns", chk_columns_json(c,
		    schema, names));
	iceberg_check(c, l, binding, schema, bad, table, &ok);
	chk_loc_reset(l, m);
	if (!ok || schema == NULL) {
		json_decref(table);
		return NULL;
	}
	return table;
}
