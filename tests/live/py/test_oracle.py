# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the live lane's oracle (py/oracle.py) and its comparator.

  python test_oracle.py [EXAMPLES_DIR]     (the lane runs it in its venv)

The expected rows below are written out by hand from the contracts in
examples/shapes and the spec's rules ("Record shapes", "The record key and
Kafka metadata"), not computed: if the oracle misreads a rule, a test here
fails.  The comparator tests feed rows that are wrong in one way each (an
extra column or struct field, a float not rounded to binary32, a lost or
duplicated row) and must see every one.
"""
import datetime as dt
import os
import sys
import unittest
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import oracle as O  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SHAPES = os.path.join(ROOT, "examples", "shapes")
UTC = dt.timezone.utc
T0 = dt.datetime(2023, 11, 14, 22, 13, 20, 123456, tzinfo=UTC)
T0_MS = T0.replace(microsecond=123000)


def rec(value, key=b"k-1", headers=(), partition=1, offset=7):
    return {"value": value, "key": key, "partition": partition, "offset": offset,
            "timestamp": T0, "headers": list(headers), "topic": "orders"}


FULL = {"event_id": "e1",
        "customer": {"id": "c1", "address": {"city": "Zürich", "country": "CH"}, "extra": 1},
        "items": [{"sku": "a", "quantity": 2, "price": Decimal("1.5")}, None,
                  {"sku": "b", "quantity": None, "price": Decimal("-0.01")}],
        "attributes": {"channel": "web", "other": "x"},
        "event_time": dt.datetime(2023, 1, 2, 3, 4, 5, 678000, tzinfo=UTC),
        "undeclared": "ignored"}


class Examples(unittest.TestCase):
    def load(self, rel):
        return O.load(os.path.join(SHAPES, rel))

    def test_landed(self):
        c = self.load("landed/orders-landed.fluid.yaml")
        self.assertEqual(c.ident, "commerce.orders_landed")
        rows = c.rows([rec(FULL, key="ключ-1".encode()), rec({"event_id": "e2"}, key=None, offset=8)])
        self.assertEqual(rows[0], {
            "order_key": "ключ-1", "event_id": "e1",
            "customer": {"id": "c1", "address": {"city": "Zürich", "country": "CH"}},
            "items": [{"sku": "a", "quantity": 2, "price": Decimal("1.50")}, None,
                      {"sku": "b", "quantity": None, "price": Decimal("-0.01")}],
            "attributes": {"channel": "web", "other": "x"},
            "event_time": dt.datetime(2023, 1, 2, 3, 4, 5, 678000, tzinfo=UTC),
            "kafka_partition": 1, "kafka_offset": 7, "kafka_timestamp": T0_MS})
        self.assertEqual(rows[1], {
            "order_key": None, "event_id": "e2", "customer": None, "items": None,
            "attributes": None, "event_time": None, "kafka_partition": 1, "kafka_offset": 8,
            "kafka_timestamp": T0_MS})
        # A malformed record (no value) is not a row.
        self.assertEqual(c.rows([rec(None)]), [])

    def test_inlined_is_landed(self):
        a = self.load("landed/orders-landed.fluid.yaml")
        b = self.load("inlined/orders-landed.fluid.yaml")
        rs = [rec(FULL), rec({"event_id": "e2"}, key=None)]
        self.assertEqual(a.rows(rs), b.rows(rs))

    def test_flattened(self):
        c = self.load("flattened/orders-items.fluid.yaml")
        rows = c.rows([rec(FULL, headers=[("trace-id", b"t-\xc3\xbc"), ("other", b"\xff")]),
                       rec(dict(FULL, items=[]), offset=8),
                       rec(dict(FULL, items=None), offset=9),
                       rec({"event_id": "e4", "items": [None]}, offset=10)])
        base = {"event_id": "e1", "event_time": dt.datetime(2023, 1, 2, 3, 4, 5, 678000, tzinfo=UTC),
                "customer_id": "c1", "country": "CH", "channel": "web",
                "kafka_partition": 1, "kafka_offset": 7, "trace_id": "t-ü"}
        self.assertEqual(rows, [
            dict(base, sku="a", quantity=2, price=Decimal("1.50")),
            dict(base, sku=None, quantity=None, price=None),       # a null element: a row of nulls
            dict(base, sku="b", quantity=None, price=Decimal("-0.01")),
            # items [] and null: no row; e4's one null element: one row.
            {"event_id": "e4", "event_time": None, "customer_id": None, "country": None,
             "channel": None, "sku": None, "quantity": None, "price": None,
             "kafka_partition": 1, "kafka_offset": 10, "trace_id": None}])
        self.assertEqual(len(c.rows([rec(FULL)], null_elements=False)), 2)

    def test_reshaped(self):
        c = self.load("reshaped/orders-reshaped.fluid.yaml")
        rows = c.rows([rec(FULL), rec({"event_id": "e2", "attributes": {}}, key=None, offset=8)])
        self.assertEqual(rows[0], {
            "order": {"id": "e1", "key": "k-1"},
            "kafka": {"partition": 1, "offset": 7, "timestamp": T0_MS},
            "customer": {"id": "c1", "address": {"city": "Zürich", "country": "CH"}},
            "items": [{"sku": "a", "quantity": 2, "price": Decimal("1.50")}, None,
                      {"sku": "b", "quantity": None, "price": Decimal("-0.01")}],
            "channel": "web",
            "event_time": dt.datetime(2023, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)})
        # Built field by field: the struct is there even when its key is not.
        self.assertEqual(rows[1]["order"], {"id": "e2", "key": None})
        self.assertIsNone(rows[1]["channel"])
        self.assertIsNone(rows[1]["customer"])


class Paths(unittest.TestCase):
    def test_lookups(self):
        src = {"attrs": {"it's": 1, "a\\b": 2, "": 3, "ключ": 4},
               "m": {"with space": {"b": 5}}, "mm": {"outer": {"inner": 6}}}
        self.assertEqual(O.eval_path(src, "attrs['it''s']", {}), 1)     # '' is a quote
        self.assertEqual(O.eval_path(src, "attrs['a\\b']", {}), 2)     # a backslash is text
        self.assertEqual(O.eval_path(src, "attrs['']", {}), 3)
        self.assertEqual(O.eval_path(src, "attrs['ключ']", {}), 4)
        self.assertEqual(O.eval_path(src, "m['with space'].b", {}), 5)
        self.assertEqual(O.eval_path(src, "mm['outer']['inner']", {}), 6)
        self.assertIsNone(O.eval_path(src, "m['missing'].b", {}))
        self.assertIsNone(O.eval_path({"attrs": None}, "attrs['x']", {}))


class Types(unittest.TestCase):
    def test_float_is_binary32(self):
        col = O._norm({"name": "f", "type": "float"})
        self.assertEqual(O.conform(col, 0.1), 0.10000000149011612)
        self.assertEqual(O.conform(col, 16777217.0), 16777216.0)
        self.assertEqual(O.conform(col, 1.4e-45), 2.0 ** -149)
        dcol = O._norm({"name": "d", "type": "double"})
        self.assertEqual(O.conform(dcol, 0.1), 0.1)

    def test_widenings(self):
        self.assertEqual(O.conform(O._norm({"name": "x", "type": "decimal(20,4)"}), Decimal("1.5")),
                         Decimal("1.5000"))
        ts = O._norm({"name": "t", "type": "timestamp(3)"})
        self.assertEqual(O.conform(ts, dt.datetime(2020, 1, 1, 0, 0, 0, 123456)),
                         dt.datetime(2020, 1, 1, 0, 0, 0, 123000))


class Comparator(unittest.TestCase):
    def test_selftest(self):
        self.assertEqual(O.selftest(), [])

    def test_extra_column_fails(self):
        cols = [O._norm({"name": "id", "type": "string", "required": True})]
        self.assertEqual(O.row_problems(cols, [{"id": "a"}], [{"id": "a"}]), [])
        p = O.row_problems(cols, [{"id": "a"}], [{"id": "a", "x": None}])
        self.assertTrue(any("not in the contract ['x']" in l for l in p), p)

    def test_schema_nested(self):
        from pyiceberg import types as T
        from pyiceberg.schema import Schema
        cols = [O._norm({"name": "s", "type": "struct", "required": True, "fields": [
            {"name": "a", "type": "int", "required": True}, {"name": "b", "type": "string"}]})]
        ok = Schema(T.NestedField(1, "s", T.StructType(
            T.NestedField(2, "a", T.IntegerType(), required=True),
            T.NestedField(3, "b", T.StringType(), required=False)), required=True))
        self.assertEqual(O.schema_problems(cols, ok), [])
        loose = Schema(T.NestedField(1, "s", T.StructType(
            T.NestedField(2, "a", T.IntegerType(), required=False),
            T.NestedField(3, "b", T.StringType(), required=False)), required=True))
        self.assertEqual(O.schema_problems(cols, loose),
                         ["s.a: contract int required, table int optional"])


if __name__ == "__main__":
    if len(sys.argv) > 1:
        SHAPES = sys.argv.pop(1)
    unittest.main(verbosity=1)
