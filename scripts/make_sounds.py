"""Synthesize the browser table's sound cues into src/hoola/server/web/sounds/ (standard library
only): short clicks and chimes made for the project, so nothing is borrowed or licensed.

    python scripts/make_sounds.py            # writes the six WAV files, 16-bit mono

The same script always makes the same files (the noise has a fixed seed).
"""

from __future__ import annotations

import math
import random
import struct
import wave
from collections.abc import Callable, Sequence
from pathlib import Path

RATE = 11025
OUT = Path(__file__).resolve().parent.parent / "src" / "hoola" / "server" / "web" / "sounds"

Wave = Callable[[float], float]


def tone(freq: float, start: float, length: float, volume: float = 0.5,
         decay: float = 6.0, overtone: float = 0.25) -> tuple[float, float, Wave]:
    """A struck note: a sine with a soft attack, an exponential decay and one overtone."""

    def at(t: float) -> float:
        attack = min(1.0, t / 0.005)
        env = attack * math.exp(-decay * t)
        return volume * env * (math.sin(2 * math.pi * freq * t) +
                               overtone * math.sin(4 * math.pi * freq * t))

    return start, length, at


def noise(start: float, length: float, volume: float, decay: float, seed: int,
          smooth: float = 0.5) -> tuple[float, float, Wave]:
    """A burst of filtered noise (a card on cloth), the same every run."""
    rng = random.Random(seed)
    samples = [rng.uniform(-1, 1) for _ in range(int(length * RATE) + 2)]
    filtered, last = [], 0.0
    for x in samples:
        last = smooth * last + (1 - smooth) * x
        filtered.append(last)

    def at(t: float) -> float:
        i = min(len(filtered) - 1, int(t * RATE))
        return volume * math.exp(-decay * t) * filtered[i]

    return start, length, at


def render(name: str, parts: Sequence[tuple[float, float, Wave]]) -> Path:
    """Mix ``parts`` (start, length, wave) into ``name``.wav, normalised below full scale."""
    total = max(start + length for start, length, _ in parts) + 0.02
    n = int(total * RATE)
    mix = [0.0] * n
    for start, length, at in parts:
        first = int(start * RATE)
        for i in range(int(length * RATE)):
            if first + i < n:
                mix[first + i] += at(i / RATE)
    peak = max(1e-9, max(abs(x) for x in mix))
    scale = 0.8 / peak
    fade = int(0.01 * RATE)
    for i in range(fade):  # no click at the end
        mix[n - 1 - i] *= i / fade
    path = OUT / f"{name}.wav"
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(32767 * x * scale)) for x in mix))
    return path


CUES: dict[str, list[tuple[float, float, Wave]]] = {
    # A card laid on the felt: a short soft burst with a low knock under it.
    "discard": [noise(0, 0.09, 0.9, 45, seed=1, smooth=0.6), tone(180, 0, 0.08, 0.4, 50, 0)],
    # Your turn: two rising notes.
    "turn": [tone(660, 0, 0.3, 0.5, 10), tone(880, 0.12, 0.33, 0.5, 9)],
    # A claim window opens: a quick high ping, twice.
    "claim": [tone(1320, 0, 0.15, 0.45, 22), tone(1320, 0.1, 0.2, 0.35, 20)],
    # Thank you (땡큐) called: a bright major chord, rolled.
    "thankyou": [tone(784, 0, 0.4, 0.4, 7), tone(988, 0.05, 0.4, 0.4, 7),
                 tone(1175, 0.1, 0.4, 0.4, 7)],
    # Out: a rising arpeggio that rings.
    "out": [tone(523, 0, 0.4, 0.4, 6), tone(659, 0.08, 0.4, 0.4, 6), tone(784, 0.16, 0.4, 0.4, 6),
            tone(1047, 0.24, 0.5, 0.45, 6)],
    # A trick taken: the cards swept together, a low thump.
    "trick": [noise(0, 0.18, 0.7, 18, seed=2, smooth=0.8), tone(140, 0.02, 0.15, 0.5, 25, 0)],
}


def main() -> None:
    """Write every cue."""
    OUT.mkdir(parents=True, exist_ok=True)
    for name, parts in CUES.items():
        path = render(name, parts)
        print(f"{path.relative_to(OUT.parent.parent.parent.parent.parent)}: "
              f"{path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
