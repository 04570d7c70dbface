# SPDX-License-Identifier: Apache-2.0
"""Kafka admin for the live lane: readiness probe and topic creation.

  kafka_admin.py --bootstrap HOST:PORT ready [--timeout S]
  kafka_admin.py --bootstrap HOST:PORT create TOPIC [--partitions N]
"""
import argparse
import sys

from confluent_kafka.admin import AdminClient, NewTopic


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", default="127.0.0.1:9092")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("ready")
    r.add_argument("--timeout", type=float, default=3)
    c = sub.add_parser("create")
    c.add_argument("topic")
    c.add_argument("--partitions", type=int, default=1)
    c.add_argument("--if-not-exists", action="store_true")
    a = ap.parse_args()
    admin = AdminClient({"bootstrap.servers": a.bootstrap, "socket.timeout.ms": 3000})
    if a.cmd == "ready":
        md = admin.list_topics(timeout=a.timeout)
        if not md.brokers:
            sys.exit(1)
        return
    fut = admin.create_topics([NewTopic(a.topic, num_partitions=a.partitions, replication_factor=1)],
                              operation_timeout=30, request_timeout=30)
    try:
        fut[a.topic].result(timeout=60)
    except Exception as e:  # noqa: BLE001 - KafkaException carries the error code
        if not (a.if_not_exists and "TOPIC_ALREADY_EXISTS" in str(e)):
            raise
    print(f"live: topic {a.topic} ({a.partitions} partitions)")


if __name__ == "__main__":
    main()
