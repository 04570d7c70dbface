# SPDX-License-Identifier: Apache-2.0
"""Generates the live lane's "hard mappings": contracts whose mappings are hard
on Flink's parser and validator (quoting, reserved words, nested paths, map
lookups, widening, struct building, explode, header casts, both value
formats, key prefixes, extreme decimals and timestamps).

  hardgen.py OUT_DIR     writes OUT_DIR/<case>.fluid.yaml, one per case

fluid decides which it accepts; every accepted one must be EXPLAINed by
Flink (tests/live/lane.sh counts both).
"""
import copy
import os
import sys

import yaml

ENDPOINTS = {
    "catalog": "http://127.0.0.1:8181",
    "s3": "http://127.0.0.1:9000",
    "kafka": "127.0.0.1:9092",
    "registry": "http://127.0.0.1:8081",
}


def col(name, type_, required=False, **kids):
    c = {"name": name, "type": type_}
    if required:
        c["required"] = True
    c.update(kids)
    return c


def el(type_, required=False, **kids):
    c = {"type": type_}
    if required:
        c["required"] = True
    c.update(kids)
    return c


def struct(name, fields, required=False):
    return col(name, "struct", required, fields=fields)


def array(name, element, required=False):
    return col(name, "array", required, element=element)


def smap(name, value, required=False):
    return col(name, "map", required, key=el("string", True), value=value)


# The hard source: reserved words, quoting, unicode, deep structs, arrays of
# structs with containers inside, maps of structs, maps of maps.
HARD_VALUE = [
    col("event_id", "string", True),
    col("order", "string"),
    struct("select", [col("from", "string"), col("where", "int"), col("group", "long")]),
    col("n_int", "int"),
    col("n_long", "long"),
    col("f", "float"),
    col("d", "double"),
    col("dec", "decimal(10,2)"),
    col("dec_max", "decimal(38,38)"),
    col("dec_one", "decimal(1,0)"),
    col("ts0", "timestamp(0)"),
    col("ts3", "timestamp(3)"),
    col("ts6", "timestamp(6)"),
    col("tsl0", "timestamp_ltz(0)"),
    col("tsl3", "timestamp_ltz(3)"),
    col("flag", "boolean"),
    col("bin", "binary"),
    col("dt", "date"),
    col("tm", "time"),
    struct("s1", [struct("s2", [struct("s3", [struct("s4", [col("leaf", "string"), col("num", "int")])])]),
                  array("list", el("struct", fields=[col("a", "int"), col("b", "string")]))]),
    array("items", el("struct", fields=[
        col("sku", "string"), col("qty", "int"), col("price", "decimal(18,2)"),
        array("tags", el("string")), smap("m", el("string")),
        struct("inner", [col("x", "int"), col("y", "timestamp_ltz(3)")])])),
    array("words", el("string")),
    array("grid", el("array", element=el("int"))),
    smap("m", el("struct", fields=[col("a", "int"), col("b", "string")])),
    smap("mm", el("map", key=el("string", True), value=el("string"))),
    smap("attrs", el("string")),
    col("event_time", "timestamp_ltz(3)"),
]

KEY_RAW = {"format": "raw", "schema": [col("k", "string")]}
META = [
    {"name": "kafka_partition", "from": "partition"},
    {"name": "kafka_offset", "from": "offset"},
    {"name": "kafka_timestamp", "from": "timestamp"},
    {"name": "kafka_headers", "from": "headers"},
    {"name": "kafka_topic", "from": "topic"},
]


def contract(case, out, mapping=None, sql=None, value=None, key=KEY_RAW, meta=META, fmt="json",
             partition=None, event_time="event_time", topic="hard"):
    stream = {"kind": "kafka", "topic": topic, "format": fmt,
              "schema": copy.deepcopy(value if value is not None else HARD_VALUE)}
    if key is not None:
        stream["key"] = copy.deepcopy(key)
    if meta:
        stream["metadata"] = copy.deepcopy(meta)
    source = {"bootstrapServers": ENDPOINTS["kafka"], "groupId": f"live-hard-{case}",
              "startupMode": "earliest-offset"}
    if fmt == "avro-confluent" or (key and key.get("format") == "avro-confluent"):
        source["schemaRegistryUrl"] = ENDPOINTS["registry"]
    flink = {"management": "operator", "source": source,
             "deployment": {
                 "name": f"live-hard-{case}".replace("_", "-"), "namespace": "data-products",
                 "context": "development", "serviceAccount": "flink",
                 "image": "registry.example.com/forge-flink@sha256:" + "0" * 64,
                 "checkpointUri": f"s3://flink-state/hard-{case}/checkpoints",
                 "savepointUri": f"s3://flink-state/hard-{case}/savepoints",
                 "haUri": f"s3://flink-state/hard-{case}/ha",
                 "secretRefs": ["flink-storage"]}}
    if event_time:
        flink["eventTime"] = {"column": event_time, "delaySeconds": 5}
    props = {"language": "flink_sql", "stream": stream, "parameters": {"flink": flink}}
    if mapping is not None:
        props["mapping"] = mapping
    if sql is not None:
        props["sql"] = sql
    iceberg = {"maxSnapshotAgeSeconds": 900}
    if partition:
        iceberg["partitionSpec"] = [{"column": p, "transform": "identity"} for p in partition]
    return {
        "fluidVersion": "0.7.7", "kind": "DataProduct", "id": f"live.hard-{case}".replace("_", "-"),
        "name": f"Live lane hard mapping {case}", "metadata": {"owner": {"team": "data-platform"}},
        "exposes": [{
            "exposeId": "out", "kind": "table",
            "binding": {"platform": "aws", "format": "iceberg",
                        "location": {"catalog": "rest", "uri": ENDPOINTS["catalog"],
                                     "warehouse": "s3://warehouse/", "namespace": "hard",
                                     "table": f"t_{case}"},
                        "catalogProperties": {"s3.endpoint": ENDPOINTS["s3"], "s3.path-style-access": "true"},
                        "icebergConfig": iceberg},
            "contract": {"schema": out}}],
        "builds": [{"id": f"b-{case}".replace("_", "-"), "engine": "flink", "pattern": "embedded-logic",
                    "outputs": ["out"], "execution": {"trigger": {"type": "continuous"},
                                                      "runtime": {"platform": "kubernetes"}},
                    "properties": props}],
    }


def by_name(name):
    return copy.deepcopy(next(c for c in HARD_VALUE if c["name"] == name))


def cases():
    c = {}
    # Every source column landed as it is: quoting, reserved words, all types.
    c["landed_all"] = contract("landed_all", [col("k", "string")] + copy.deepcopy(HARD_VALUE) + [
        col("kafka_partition", "int", True), col("kafka_offset", "long", True),
        col("kafka_timestamp", "timestamp_ltz(3)", True), col("kafka_topic", "string", True)])
    # Reserved words and odd names as output columns, read by path.
    c["reserved_names"] = contract("reserved_names", [
        col("event_id", "string", True), col("from", "string"), col("where", "int"),
        col("select", "string"), col("table", "long"), col("partition", "int", True),
        col("timestamp", "timestamp_ltz(3)", True), col("value", "string"), col("key", "string")],
        mapping={"columns": [
            {"name": "from", "from": "select.from"}, {"name": "where", "from": "select.where"},
            {"name": "select", "from": "order"}, {"name": "table", "from": "select.group"},
            {"name": "partition", "from": "kafka_partition"}, {"name": "timestamp", "from": "kafka_timestamp"},
            {"name": "value", "from": "attrs['value']"}, {"name": "key", "from": "k"}]})
    # Names that are not plain identifiers (fluid refuses them).
    c["odd_names"] = contract("odd_names", [col("event_id", "string", True), col("weird name", "string")],
                              value=[col("event_id", "string", True), col("weird name", "string")],
                              event_time=None)
    # Lossless widenings at the top level and inside a built struct.
    c["widen"] = contract("widen", [
        col("event_id", "string", True), col("n_int", "long"), col("f", "double"),
        col("dec", "decimal(20,2)"), col("ts3", "timestamp(6)"), col("tsl0", "timestamp_ltz(6)"),
        struct("w", [col("a", "long"), col("b", "decimal(38,2)")])],
        mapping={"columns": [{"name": "w.a", "from": "n_int"}, {"name": "w.b", "from": "dec"}]})
    # Map lookups: quotes and unicode in keys, a field after a lookup, a lookup in a lookup.
    c["map_lookups"] = contract("map_lookups", [
        col("event_id", "string", True), col("quoted", "string"), col("uni", "string"),
        col("a_of_k", "int"), col("b_of_k", "string"), col("deep", "string"), col("empty_key", "string")],
        mapping={"columns": [
            {"name": "quoted", "from": "attrs['it''s']"}, {"name": "uni", "from": "attrs['ключ']"},
            {"name": "a_of_k", "from": "m['k'].a"}, {"name": "b_of_k", "from": "m['with space'].b"},
            {"name": "deep", "from": "mm['outer']['inner']"}, {"name": "empty_key", "from": "attrs['']"}]})
    # A leaf four structs down, lifted to the top and rebuilt three levels deep.
    c["deep_paths"] = contract("deep_paths", [
        col("event_id", "string", True), col("leaf", "string"), col("num", "int"),
        struct("a", [struct("b", [struct("c", [col("leaf", "string"), col("num", "int")],
                                         required=True)], required=True)], required=True)],
        mapping={"columns": [
            {"name": "leaf", "from": "s1.s2.s3.s4.leaf"}, {"name": "num", "from": "s1.s2.s3.s4.num"},
            {"name": "a.b.c.leaf", "from": "s1.s2.s3.s4.leaf"}, {"name": "a.b.c.num", "from": "s1.s2.s3.s4.num"}]})
    # A whole nullable struct copied (null where the source is), reordered and narrowed.
    c["struct_reorder"] = contract("struct_reorder", [
        col("event_id", "string", True),
        struct("select", [col("group", "long"), col("from", "string")]),
        struct("s1", [struct("s2", [struct("s3", [struct("s4", [col("num", "int"), col("leaf", "string")])])])])])
    # Explode an array of structs; fields, containers and a nested struct of the element.
    c["explode_structs"] = contract("explode_structs", [
        col("event_id", "string", True), col("sku", "string"), col("qty", "long"),
        col("price", "decimal(18,2)"), array("tags", el("string")), col("m_k", "string"),
        col("x", "int"), col("y", "timestamp_ltz(3)"), col("kafka_offset", "long", True),
        struct("pos", [col("partition", "int", True), col("offset", "long", True)], required=True)],
        mapping={"explode": {"path": "items", "as": "item"}, "columns": [
            {"name": "sku", "from": "item.sku"}, {"name": "qty", "from": "item.qty"},
            {"name": "price", "from": "item.price"}, {"name": "tags", "from": "item.tags"},
            {"name": "m_k", "from": "item.m['k']"}, {"name": "x", "from": "item.inner.x"},
            {"name": "y", "from": "item.inner.y"},
            {"name": "pos.partition", "from": "kafka_partition"}, {"name": "pos.offset", "from": "kafka_offset"}]})
    # Explode an array of strings, and an array of arrays.
    c["explode_scalars"] = contract("explode_scalars", [
        col("event_id", "string", True), col("word", "string")],
        mapping={"explode": {"path": "words", "as": "w"}, "columns": [{"name": "word", "from": "w"}]})
    c["explode_arrays"] = contract("explode_arrays", [
        col("event_id", "string", True), array("row", el("int"))],
        mapping={"explode": {"path": "grid", "as": "r"}, "columns": [{"name": "row", "from": "r"}]})
    # Explode an array inside a struct.
    c["explode_nested"] = contract("explode_nested", [
        col("event_id", "string", True), col("a", "int"), col("b", "string"), col("leaf", "string")],
        mapping={"explode": {"path": "s1.list", "as": "e"}, "columns": [
            {"name": "a", "from": "e.a"}, {"name": "b", "from": "e.b"},
            {"name": "leaf", "from": "s1.s2.s3.s4.leaf"}]})
    # Explode with a reserved word as the element's name.
    c["explode_reserved_as"] = contract("explode_reserved_as", [
        col("event_id", "string", True), col("sku", "string")],
        mapping={"explode": {"path": "items", "as": "table"}, "columns": [
            {"name": "sku", "from": "table.sku"}]})
    # Headers read as text, with odd header names.
    c["headers"] = contract("headers", [
        col("event_id", "string", True), col("trace_id", "string"), col("odd", "string"),
        col("raw", "binary")],
        mapping={"columns": [
            {"name": "trace_id", "from": "kafka_headers['trace-id']", "cast": "string"},
            {"name": "odd", "from": "kafka_headers['it''s; -- /*']", "cast": "string"},
            {"name": "raw", "from": "kafka_headers['bin']"}]})
    # Binary value cast to text, and the topic metadata.
    c["binary_cast"] = contract("binary_cast", [
        col("event_id", "string", True), col("bin_text", "string"), col("topic", "string", True)],
        mapping={"columns": [{"name": "bin_text", "from": "bin", "cast": "string"},
                             {"name": "topic", "from": "kafka_topic"}]})
    # Identity partitions on columns that need quoting.
    c["partitioned"] = contract("partitioned", [
        col("event_id", "string", True), col("order", "string"), col("select", "string"),
        col("dt", "date")], partition=["order", "select", "dt"],
        mapping={"columns": [{"name": "select", "from": "select.from"}]})
    # Extreme decimals and timestamp precisions, widened.
    c["extremes"] = contract("extremes", [
        col("event_id", "string", True), col("dec_max", "decimal(38,38)"), col("dec_one", "decimal(38,0)"),
        col("ts0", "timestamp(6)"), col("ts6", "timestamp(6)"), col("tsl0", "timestamp_ltz(0)"),
        col("tsl3", "timestamp_ltz(6)")])
    # A required struct built from required and nullable parts.
    c["built_required"] = contract("built_required", [
        struct("id", [col("event", "string", True), col("key", "string"),
                      struct("pos", [col("p", "int", True), col("o", "long", True)], required=True)],
               required=True),
        col("event_time", "timestamp_ltz(3)")],
        mapping={"columns": [
            {"name": "id.event", "from": "event_id"}, {"name": "id.key", "from": "k"},
            {"name": "id.pos.p", "from": "kafka_partition"}, {"name": "id.pos.o", "from": "kafka_offset"}]})
    # A required field inside a nullable struct (Flink's DDL drops that NOT NULL).
    c["nested_required"] = contract("nested_required", [
        col("event_id", "string", True),
        struct("doc", [col("id", "string", True), col("n", "int")])],
        mapping={"columns": [{"name": "doc.id", "from": "event_id"}, {"name": "doc.n", "from": "n_int"}]})
    # A nullable array of structs with a required field.
    c["element_required"] = contract("element_required", [
        col("event_id", "string", True),
        array("items", el("struct", fields=[col("sku", "string", True), col("qty", "int")]))],
        value=[col("event_id", "string", True),
               array("items", el("struct", fields=[col("sku", "string", True), col("qty", "int")]))],
        event_time=None)
    # The build's own SQL.
    c["own_sql"] = contract("own_sql", [
        col("event_id", "string", True), col("n", "bigint" if False else "long"), col("tag", "string")],
        sql="SELECT `event_id`, CAST(`n_int` AS BIGINT) AS `n`, UPPER(`order`) AS `tag` FROM `source_events`")
    # JSON key with a prefix (EXCEPT_KEY), the key fields read by their prefixed names.
    c["json_key_prefix"] = contract("json_key_prefix", [
        col("event_id", "string", True), col("key_event_id", "string"), col("key_n", "int")],
        key={"format": "json", "prefix": "key_", "schema": [col("event_id", "string"), col("n", "int")]})
    # avro-confluent value with a TIMESTAMP_LTZ(3) as the event time: Flink 1.20's avro
    # format cannot derive an Avro type for it (the lane found that), so fluid reads it
    # as TIMESTAMP(3) and converts it, the watermark on the converted value.
    c["avro_value"] = contract("avro_value", [
        col("event_id", "string", True), col("dec", "decimal(10,2)"), col("tsl3", "timestamp_ltz(3)"),
        struct("s1", [struct("s2", [struct("s3", [struct("s4", [col("leaf", "string"), col("num", "int")])])])]),
        array("words", el("string")), smap("attrs", el("string"))],
        fmt="avro-confluent", event_time="tsl3",
        value=[col("event_id", "string", True), col("dec", "decimal(10,2)"), col("tsl3", "timestamp_ltz(3)"),
               by_name("s1"), by_name("words"), by_name("attrs")])
    # avro-confluent without TIMESTAMP_LTZ: nested rows, arrays, maps, decimals.
    c["avro_plain"] = contract("avro_plain", [
        col("event_id", "string", True), col("dec", "decimal(10,2)"), col("ts3", "timestamp(3)"),
        struct("s1", [struct("s2", [struct("s3", [struct("s4", [col("leaf", "string"), col("num", "int")])])])]),
        array("words", el("string")), smap("attrs", el("string"))],
        fmt="avro-confluent", event_time="ts3",
        value=[col("event_id", "string", True), col("dec", "decimal(10,2)"), col("ts3", "timestamp(3)"),
               by_name("s1"), by_name("words"), by_name("attrs")])
    # timestamp_ltz with avro-confluent, nested: in a struct (beside a required field),
    # in an array's struct element, as a map's value and in a map's struct value;
    # landed, lifted, looked up; the event time at the top.
    ltz_value = [
        col("event_id", "string", True), col("tsl3", "timestamp_ltz(3)"), col("ts3", "timestamp(3)"),
        struct("doc", [col("id", "string", True), col("at", "timestamp_ltz(3)"),
                       struct("inner", [col("y", "timestamp_ltz(3)", True)])]),
        array("visits", el("struct", fields=[col("page", "string"), col("at", "timestamp_ltz(3)", True)])),
        array("stamps", el("timestamp_ltz(3)")),
        smap("seen", el("timestamp_ltz(3)")),
        smap("by", el("struct", fields=[col("at", "timestamp_ltz(0)"), col("n", "int")]))]
    c["avro_ltz_struct"] = contract("avro_ltz_struct", [
        col("event_id", "string", True), col("tsl3", "timestamp_ltz(3)"), copy.deepcopy(ltz_value[3]),
        col("doc_at", "timestamp_ltz(3)"), col("inner_y", "timestamp_ltz(3)")],
        fmt="avro-confluent", event_time="tsl3", value=ltz_value,
        mapping={"columns": [{"name": "doc_at", "from": "doc.at"},
                             {"name": "inner_y", "from": "doc.inner.y"}]})
    c["avro_ltz_array"] = contract("avro_ltz_array", [
        col("event_id", "string", True), copy.deepcopy(ltz_value[4]), copy.deepcopy(ltz_value[5]),
        col("ts3", "timestamp(3)")],
        fmt="avro-confluent", event_time="tsl3", value=ltz_value)
    c["avro_ltz_map"] = contract("avro_ltz_map", [
        col("event_id", "string", True), copy.deepcopy(ltz_value[6]), copy.deepcopy(ltz_value[7]),
        col("seen_k", "timestamp_ltz(3)"), col("by_at", "timestamp_ltz(0)")],
        fmt="avro-confluent", event_time="tsl3", value=ltz_value,
        mapping={"columns": [{"name": "seen_k", "from": "seen['k']"},
                             {"name": "by_at", "from": "by['it''s'].at"}]})
    # Explode the array of structs holding timestamp_ltz (with the rows of null elements).
    c["avro_ltz_explode"] = contract("avro_ltz_explode", [
        col("event_id", "string", True), col("page", "string"), col("at", "timestamp_ltz(3)"),
        col("tsl3", "timestamp_ltz(3)")],
        fmt="avro-confluent", event_time="tsl3", value=ltz_value,
        mapping={"explode": {"path": "visits", "as": "v"}, "columns": [
            {"name": "page", "from": "v.page"}, {"name": "at", "from": "v.at"}]})
    # An avro key with a prefix holding a timestamp_ltz, the event time; a raw-free key.
    c["avro_ltz_key"] = contract("avro_ltz_key", [
        col("event_id", "string", True), col("key_id", "string"), col("key_at", "timestamp_ltz(3)"),
        col("tsl3", "timestamp_ltz(3)"), col("kafka_timestamp", "timestamp_ltz(3)", True)],
        fmt="avro-confluent", event_time="key_at", value=ltz_value,
        key={"format": "avro-confluent", "prefix": "key_",
             "schema": [col("id", "string"), col("at", "timestamp_ltz(3)")]})
    # The build's own SQL reads source_events with the declared (converted) types.
    c["avro_ltz_own_sql"] = contract("avro_ltz_own_sql", [
        col("event_id", "string", True), col("tsl3", "timestamp_ltz(3)"), col("at", "timestamp_ltz(3)"),
        col("first_visit", "timestamp_ltz(3)")],
        fmt="avro-confluent", event_time="tsl3", value=ltz_value,
        sql="SELECT `event_id`, `tsl3`, `doc`.`at` AS `at`, `visits`[1].`at` AS `first_visit` "
            "FROM `source_events` WHERE `tsl3` > TIMESTAMPADD(DAY, -1, `tsl3`)")
    # No key, no metadata, no event time.
    c["bare"] = contract("bare", [col("event_id", "string", True), col("d", "double")],
                         key=None, meta=[], event_time=None)
    return c


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, doc in cases().items():
        with open(os.path.join(out, f"{name}.fluid.yaml"), "w") as f:
            f.write(f"# Generated by tests/live/py/hardgen.py: case {name}\n")
            yaml.safe_dump(doc, f, sort_keys=False, allow_unicode=True, width=1000)
    print(f"hardgen: {len(cases())} contracts in {out}")


if __name__ == "__main__":
    main()
