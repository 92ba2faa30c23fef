"""The lobby form's meanings in words.json: every option's and preset's meaning the rule books
give (``GET /api/rules/{game}``) has its English (the engine's own sentence) and its Korean, so
the Korean lobby shows no English meaning (the browser side is in ``tests/test_web_words.py``)."""

from __future__ import annotations

import json
from pathlib import Path

from hoola.core.registry import game_names, get_game
from hoola.core.rulebook import rules_data

WORDS = Path(__file__).resolve().parents[1] / "src" / "hoola" / "server" / "web" / "words.json"


def test_every_option_and_preset_meaning_has_english_and_korean_words() -> None:
    data = json.loads(WORDS.read_text(encoding="utf-8"))
    en, ko = data["en"], data["ko"]
    missing, differs = [], []
    for name in game_names():
        game = get_game(name)
        for preset in game.presets():
            book = rules_data(game, preset.name)
            wanted = {f"option.{name}.{o['key']}": o["meaning"] for o in book["options"]}
            wanted.update({f"preset-meaning.{name}.{p['name']}": p["meaning"]
                           for p in book["presets"] if p["meaning"]})
            for key, meaning in wanted.items():
                if key not in en or key not in ko:
                    missing.append(key)
                elif en[key] != meaning:
                    differs.append(key)
    assert not missing, sorted(set(missing))
    assert not differs, sorted(set(differs))  # the English is the engine's, word for word
