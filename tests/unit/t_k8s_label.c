/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * t_k8s_label.c - unit tests for lib/k8s_label.c: the Kubernetes name
 * rules (DNS-1123 label and subdomain, label value, ConfigMap key) and
 * whether an object carries fluid's labels.
 */
#include <string.h>

#include "k8s.h"
#include "tap.h"

int
main(void)
{
	char s64[65], s254[255];
	json_t *o;

	memset(s64, 'a', 64);
	s64[64] = '\0';
	memset(s254, 'a', 254);
	s254[254] = '\0';

	ok(k8s_dns_label("orders-1", 63), "label: letters, digits, '-'");
	ok(k8s_dns_label("1a", 63), "label: a digit first");
	ok(!k8s_dns_label("-a", 63), "label: '-' first");
	ok(!k8s_dns_label("a-", 63), "label: '-' last");
	ok(!k8s_dns_label("Orders", 63), "label: upper case");
	ok(!k8s_dns_label("a.b", 63), "label: a dot");
	ok(!k8s_dns_label("a_b", 63), "label: an underscore");
	ok(!k8s_dns_label("", 63), "label: empty");
	ok(!k8s_dns_label(NULL, 63), "label: NULL");
	ok(k8s_dns_label(s64 + 1, 63), "label: 63 of 63");
	ok(!k8s_dns_label(s64, 63), "label: 64 of 63");
	ok(!k8s_dns_label("abcdef", 5), "label: past its own max");

	ok(k8s_dns_subdomain("a.b-c.d", 253), "subdomain: dotted labels");
	ok(k8s_dns_subdomain("flink", 253), "subdomain: one label");
	ok(!k8s_dns_subdomain("a..b", 253), "subdomain: an empty label");
	ok(!k8s_dns_subdomain("a.-b", 253),
	    "subdomain: a label with '-' first");
	ok(!k8s_dns_subdomain("a-.b", 253), "subdomain: a label with '-' last");
	ok(!k8s_dns_subdomain(".a", 253), "subdomain: a dot first");
	ok(!k8s_dns_subdomain("a.", 253), "subdomain: a dot last");
	ok(!k8s_dns_subdomain("A.b", 253), "subdomain: upper case");
	ok(!k8s_dns_subdomain(NULL, 253), "subdomain: NULL");
	ok(k8s_dns_subdomain(s254 + 1, 253), "subdomain: 253 of 253");
	ok(!k8s_dns_subdomain(s254, 253), "subdomain: 254 of 253");

	ok(k8s_label_value("Orders_v1.2-x"), "label value: A-Z a-z 0-9 _ . -");
	ok(!k8s_label_value("_a"), "label value: '_' first");
	ok(!k8s_label_value("a."), "label value: '.' last");
	ok(!k8s_label_value("a/b"), "label value: a slash");
	ok(!k8s_label_value("a b"), "label value: a space");
	ok(!k8s_label_value(""), "label value: empty");
	ok(!k8s_label_value(NULL), "label value: NULL");
	ok(k8s_label_value(s64 + 1), "label value: 63");
	ok(!k8s_label_value(s64), "label value: 64");

	ok(k8s_configmap_key("orders.sql"), "configmap key: a file name");
	ok(k8s_configmap_key("_A-1"), "configmap key: any end");
	ok(!k8s_configmap_key("."), "configmap key: '.'");
	ok(!k8s_configmap_key(".."), "configmap key: '..'");
	ok(k8s_configmap_key("..."), "configmap key: '...'");
	ok(!k8s_configmap_key("a/b"), "configmap key: a slash");
	ok(!k8s_configmap_key(""), "configmap key: empty");
	ok(k8s_configmap_key(s254 + 1), "configmap key: 253");
	ok(!k8s_configmap_key(s254), "configmap key: 254");

	o = json_pack("{s:{s:{s:s, s:s, s:s}}}", "metadata", "labels",
	    "app.kubernetes.io/managed-by", "fluid", "app.kubernetes.io/name",
	    "shop", "fluid.dev/build", "orders");
	ok(k8s_owned(o, "shop", "orders"), "owned: fluid's three labels");
	ok(!k8s_owned(o, "shop", "other"), "owned: another build");
	ok(!k8s_owned(o, "other", "orders"), "owned: another product");
	ok(!k8s_owned(o, NULL, "orders"), "owned: no product asked");
	ok(!k8s_owned(o, "shop", NULL), "owned: no build asked");
	json_object_set_new(json_object_get(json_object_get(o, "metadata"),
	    "labels"), "app.kubernetes.io/managed-by", json_string("helm"));
	ok(!k8s_owned(o, "shop", "orders"), "owned: another manager");
	json_object_set_new(json_object_get(json_object_get(o, "metadata"),
	    "labels"), "app.kubernetes.io/managed-by", json_integer(1));
	ok(!k8s_owned(o, "shop", "orders"), "owned: a manager not a string");
	json_object_del(json_object_get(o, "metadata"), "labels");
	ok(!k8s_owned(o, "shop", "orders"), "owned: no labels");
	ok(!k8s_owned(NULL, "shop", "orders"), "owned: no object");
	json_decref(o);
	return done_testing();
}
