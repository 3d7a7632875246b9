"""The rules in sentences (phase10.core.rules_text): every option has its sentences, and the
sentences speak words, never option names."""

from __future__ import annotations

from dataclasses import fields
from enum import StrEnum

from phase10.core import PRESETS, Rules, preset
from phase10.core.rules_text import (
    ANY_ORDER_SENTENCES,
    OPTION_SENTENCES,
    PHASE_OPTIONS,
    explain_rules,
)


def test_every_rules_option_has_a_sentence_for_each_of_its_values() -> None:
    """Fails when a new option (or a new value) is added to Rules without its sentence."""
    defaults = Rules()
    for item in fields(Rules):
        if not item.init:
            continue
        assert item.name in OPTION_SENTENCES or item.name in PHASE_OPTIONS, item.name
        value = getattr(defaults, item.name)
        if isinstance(value, StrEnum):
            assert set(OPTION_SENTENCES[item.name]) == set(type(value)), item.name


def test_changing_any_option_changes_what_the_rules_say() -> None:
    base = Rules().with_options(phase_order="any", save_pile="private")  # so all options matter
    said = explain_rules(base)
    for option, by_value in OPTION_SENTENCES.items():
        for value, sentence in by_value.items():
            try:
                rules = base.with_options(**{option: value})
            except ValueError:
                continue  # a combination the rules refuse
            # (with phases in any order a few sentences have words of their own)
            assert ANY_ORDER_SENTENCES.get(value, sentence) in explain_rules(rules)
            if getattr(base, option) != value:
                assert explain_rules(rules) != said, option


def test_phases_in_any_order_are_not_said_to_go_one_after_another() -> None:
    """Where phases are made in any order there is no "next phase" to move on to, and the
    game ends when someone has completed every phase, not a last one in a list."""
    for name in ("masters", "anti-phase"):
        text = " ".join(explain_rules(preset(name)))
        assert "move on to the next phase" not in text and "completes every phase" in text
        assert "highest completed phase" in text or name == "masters"
    in_order = " ".join(explain_rules(Rules()))
    assert "move on to the next phase" in in_order and "completes the last phase" in in_order


def test_every_preset_is_explained_in_words_not_option_names() -> None:
    for rules in PRESETS.values():
        sentences = explain_rules(rules)
        assert sentences[0].startswith("You play")
        for sentence in sentences:
            # option names and values are written with underscores (wild_deal_up, hand_end)
            assert sentence.endswith(".") and "_" not in sentence, sentence
