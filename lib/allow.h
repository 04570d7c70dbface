/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * allow.h - the operator allowlists (fluid(7), ENVIRONMENT).
 *
 * A contract names where its job lands and what it contacts; the
 * applier's kubeconfig and environment would grant whatever it names.
 * These lists, read from the operator's environment only, say what a
 * contract may name.  Everything here is a pure function of strings:
 * no DNS lookup, no file, no network (hosts are parsed by libcurl's URL
 * parser through url.h and compared as text), so every rule is tested
 * without a cluster.
 *
 * An unset or empty list allows nothing.  A list is comma-separated;
 * blanks around an entry and empty entries are ignored.
 *
 * A matcher returns true when the list admits the value.  Otherwise it
 * sets *why (when why is not NULL) to a new string the caller frees: one
 * line, without a contract path (the caller adds it), that names the
 * value as its entry would, the variable, and the entry that would admit
 * it:
 *
 *	image 'registry.example.com/forge-flink' is not in
 *	FLUID_FLINK_IMAGE_ALLOWLIST: export
 *	FLUID_FLINK_IMAGE_ALLOWLIST=registry.example.com/forge-flink
 *
 * (one line; when the list already has entries the export keeps them:
 * FLUID_..._ALLOWLIST="$FLUID_..._ALLOWLIST,entry").  A value is never
 * echoed beyond that entry: not a URL's path or user, not an image's
 * tag, never a credential, never SQL.  A value that no entry could hold
 * (a control character, a comma, a quote) is refused without being
 * echoed at all.
 */
#ifndef FLUID_ALLOW_H
#define FLUID_ALLOW_H

#include <stdbool.h>
#include <stddef.h>

enum allow_list {
	ALLOW_KUBE_CONTEXT,	/* FLUID_FLINK_KUBE_CONTEXT_ALLOWLIST */
	ALLOW_NAMESPACE,	/* FLUID_FLINK_NAMESPACE_ALLOWLIST */
	ALLOW_IMAGE,		/* FLUID_FLINK_IMAGE_ALLOWLIST */
	ALLOW_SERVICE_ACCOUNT,	/* FLUID_FLINK_SERVICE_ACCOUNT_ALLOWLIST */
	ALLOW_SECRET,		/* FLUID_FLINK_SECRET_ALLOWLIST */
	ALLOW_HOST,		/* FLUID_ACQUISITION_DEPLOYMENT_HOST_ALLOWLIST */
	ALLOW_SECRET_REF,	/* FLUID_ACQUISITION_SECRET_REF_ALLOWLIST */
	ALLOW_CONTRACT_SQL,	/* FLUID_FLINK_CONTRACT_SQL_ALLOWLIST */
	ALLOW_CFK_ENVIRONMENT,	/* FLUID_CFK_FLINK_ENVIRONMENT_ALLOWLIST */
	ALLOW_CFK_REST_CLASS,	/* FLUID_CFK_CMF_REST_CLASS_ALLOWLIST */
	ALLOW_CFK_COMPUTE_POOL,	/* FLUID_CFK_COMPUTE_POOL_ALLOWLIST */
	ALLOW_NLISTS
};

/* The entries of one list, as written (blanks trimmed). */
struct allow_entries {
	char	**v;
	size_t	  n;
	bool	  set;		/* the variable was set and not empty */
};

struct allow {
	struct allow_entries list[ALLOW_NLISTS];
};

/* Who sends a catalog credential: they differ on loopback hosts. */
enum allow_cmd {
	ALLOW_CMD_APPLY,	/* from the pod: loopback is the pod */
	ALLOW_CMD_DIFF,
	ALLOW_CMD_VERIFY,	/* from the operator's own machine */
	ALLOW_CMD_GATEWAY	/* apply through a SQL Gateway: as apply,
				   without the Kubernetes targets */
};

/* The variable of a list ("FLUID_FLINK_IMAGE_ALLOWLIST"). */
const char *allow_variable(enum allow_list);
/*
 * Whether name is one of the list variables, so that a reader of a file
 * (a project .env, a workspace file) can ignore it and warn.
 */
bool	allow_is_list_variable(const char *name);
/*
 * The list variables that a file's text tries to set, as a project's
 * .env does ("NAME=value", "export NAME=value", one a line, '#'
 * comments): found() is called with the line (from 1) and the variable
 * of each.  Only names are read, never a value: fluid ignores such a
 * line (a list comes from the process environment alone) and the caller
 * warns, naming the file, the line and the variable.  Returns how many.
 */
size_t	allow_settings_in_text(const char *text, size_t len,
	    void (*found)(void *arg, size_t line, const char *var), void *arg);

/*
 * Fill a from env, a getenv()-like function (the programs pass getenv,
 * tests their own).  a needs no init before; release it with
 * allow_release().
 */
void	allow_load(struct allow *a, char *(*env)(const char *));
void	allow_release(struct allow *);

/* Exact names. */
bool	allow_kube_context(const struct allow *, const char *context,
	    char **why);
bool	allow_namespace(const struct allow *, const char *ns, char **why);
/*
 * image is a reference, [registry/]path[:tag]@sha256:<64 hex>.  Its
 * repository (without tag and digest) must equal an entry, or start with
 * an entry that ends in '/'; it must be pinned by digest, and the tag
 * never decides.  Docker Hub's short forms are expanded on both sides
 * ("flink" is docker.io/library/flink).
 */
bool	allow_image(const struct allow *, const char *image, char **why);
/*
 * An entry is "name" (that name in any namespace; the namespace has a
 * list of its own) or "namespace/name".
 */
bool	allow_service_account(const struct allow *, const char *ns,
	    const char *name, char **why);
bool	allow_secret(const struct allow *, const char *ns, const char *name,
	    char **why);
/*
 * What a CFK build runs under, named by the contract and not checked
 * against the cluster (a dry run reads none): the FlinkEnvironment (its
 * kubernetesNamespace and workload identity are where CMF runs the
 * job), the CMFRestClass (the CMF endpoint and the credentials CFK
 * uses) and an existing FlinkComputePool fluid does not render (its
 * image).  l is ALLOW_CFK_ENVIRONMENT, ALLOW_CFK_REST_CLASS or
 * ALLOW_CFK_COMPUTE_POOL; an entry is "name" or "namespace/name", as
 * for service accounts.
 */
bool	allow_cfk(const struct allow *, enum allow_list l, const char *ns,
	    const char *name, char **why);

/*
 * A host the job contacts: an absolute URL or a bare host[:port] (a
 * Kafka broker, a bracketed IPv6 address).  The host is normalised
 * (allow_host_normalize()); a name needs an entry that equals it or is
 * a parent domain of it, whatever it resolves to; an IP address needs an
 * equal entry only when it is public (not loopback 127.0.0.0/8 and ::1,
 * not private 10/8, 172.16/12, 192.168/16, fc00::/7); link-local
 * (169.254.0.0/16, fe80::/10) is always refused.
 */
bool	allow_host(const struct allow *, const char *url_or_host,
	    char **why);
/*
 * Whether the catalogAuth variable name may be sent to the host of
 * url_or_host: an entry NAME@host with exactly that host (after
 * normalisation; a parent domain does not cover it), or a bare NAME.
 * For ALLOW_CMD_VERIFY a loopback host (localhost, 127.0.0.0/8, ::1;
 * not db.localhost) needs no entry; for apply it does.
 */
bool	allow_secret_ref(const struct allow *, enum allow_cmd,
	    const char *name, const char *url_or_host, char **why);
/*
 * The same for a variable of parameters.flink.source.security, which
 * the Kafka client in the pod sends to (or uses with) broker, one
 * host:port of bootstrapServers: NAME@host or a bare NAME, loopback
 * included (only apply checks it).
 */
bool	allow_source_secret_ref(const struct allow *, const char *name,
	    const char *broker, char **why);
/*
 * A build's own SQL: an entry product/build@sha256:<digest of sql>,
 * product/build or product.  The refusal asks for the pinned entry.
 */
bool	allow_contract_sql(const struct allow *, const char *product,
	    const char *build, const char *sql, char **why);

/*
 * The host of url_or_host as the host list compares it: a new string, or
 * NULL with *why a static reason.  libcurl's parser reads it; IDNA names
 * become punycode, case is folded, one trailing dot is dropped, an
 * IPv4-mapped IPv6 address becomes IPv4, IPv6 is written as inet_ntop()
 * writes it, ports, brackets and everything after the host are dropped.
 */
char	*allow_host_normalize(const char *url_or_host, const char **why);

/*
 * What a command is about to use.  A target with a NULL value is not
 * named and not checked, but for the deployment targets context,
 * namespace, image and service account: the caller passes what
 * Kubernetes will actually use (the current context, "default"), and a
 * NULL there is refused.  where is the caller's (a contract path, a JSON
 * pointer): it is passed through to the refusals, never read.
 */
struct allow_target {
	const char	*value;
	const char	*where;
};

struct allow_targets {
	/* Checked by apply, diff and verify. */
	struct allow_target	 context, ns, image, service_account;
	const struct allow_target *secrets;	/* Secret names in ns */
	size_t			 nsecrets;
	/* Checked by apply, and catalog and token endpoint by verify. */
	struct allow_target	 catalog;	/* the catalog's URL */
	struct allow_target	 token_endpoint; /* OAuth2; NULL for bearer */
	struct allow_target	 catalog_auth;	/* the variable's NAME */
	const struct allow_target *endpoints;	/* s3.endpoint and other */
	size_t			 nendpoints;	/* host-bearing properties */
	struct allow_target	 bootstrap_servers; /* host:port,... */
	/* The Kafka variables' NAMEs, each paired with every broker. */
	const struct allow_target *source_secrets;
	size_t			 nsource_secrets;
	struct allow_target	 schema_registry;
	const char		*product, *build;
	struct allow_target	 sql;		/* the build's own SQL */
};

struct allow_refusal {
	const char	*where;		/* borrowed: the target's */
	char		*msg;		/* as the matchers' *why */
};

struct allow_refusals {
	struct allow_refusal	*v;
	size_t			 n, cap;
};

void	allow_refusals_init(struct allow_refusals *);
void	allow_refusals_release(struct allow_refusals *);
/*
 * Check every target cmd checks (fluid(7), "which command checks what")
 * and add every refusal to r, in the order of struct allow_targets.
 * Returns the number added: 0 when everything is admitted.
 */
size_t	allow_check(const struct allow *, enum allow_cmd,
	    const struct allow_targets *, struct allow_refusals *r);

#endif
