"""Sends huge messages to a table, from a process of its own so that building and sending
them costs the table's process nothing. Run by test_hostile_messages.py, from the repository:

    python -m tests.controller.mqtt.huge_sender PORT TABLE_ID SIZE...

Connects as the operator and subscribes to the table's two inbound topics itself (with no
limit on packet size), prints "ready", waits for a line on stdin, then publishes one message
of each SIZE to each topic, waits until the broker has routed every one back to it, then
publishes a small refused message to each topic (correlation data "marker") and prints
"sent" with the sizes it received back.
"""

from __future__ import annotations

import queue
import sys

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from tests.controller.mqtt.broker import OPERATOR, PASSWORD

WAIT = 120.0  # seconds: only a limit for a broker that never answers


def main(port: int, table_id: str, sizes: list[int]) -> None:
    topics = [f"flashtable/{table_id}/settings/set", f"flashtable/{table_id}/command"]
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="huge-sender", protocol=mqtt.MQTTv5)
    client.username_pw_set(OPERATOR, PASSWORD)
    received: queue.Queue[int] = queue.Queue()
    subscribed: queue.Queue[bool] = queue.Queue()
    client.on_message = lambda _c, _u, message: received.put(len(message.payload))
    client.on_subscribe = lambda *_: subscribed.put(True)
    client.connect("127.0.0.1", port)
    client.loop_start()
    client.subscribe([(topic, 1) for topic in topics])
    subscribed.get(timeout=WAIT)
    print("ready", flush=True)
    sys.stdin.readline()
    for size in sizes:
        for topic in topics:
            body = b'{"action": "' + b"x" * (size - 14) + b'"}'
            client.publish(topic, body, qos=1).wait_for_publish(WAIT)
    back = sorted(received.get(timeout=WAIT) for _ in range(len(sizes) * len(topics)))
    marker = Properties(PacketTypes.PUBLISH)
    marker.CorrelationData = b"marker"
    for topic in topics:
        client.publish(topic, b"[]", qos=1, properties=marker).wait_for_publish(WAIT)
    print("sent", *back, flush=True)
    client.loop_stop()
    client.disconnect()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], [int(size) for size in sys.argv[3:]])
