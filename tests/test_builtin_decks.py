"""The built-in decks, verified with the formula engine.

Every deck loads with zero failures (structure and engine checks), every reference answer grades
as correct against itself, every identity a card states holds, every numeric template is finite
over its whole parameter range and grades its own answer as correct, every fact sits where its
card says and matches the sheet, and every topic of the two formula sheets has at least as many
cards as the sheets have items in it.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

import pytest

from recall.cards.loader import LoadResult, load_decks
from recall.cards.model import Card, CardKind
from recall.cards.params import corner_cases, draw, exhaustive_cases
from recall.grading import (
    Question,
    check_deck,
    check_derivative,
    grade,
    reference_answer,
    symbol_table,
)
from recall.paths import builtin_decks_dir
from recall.verdicts import Status

SHEETS = {"sheet:cheatsheet", "sheet:formula-sheet"}

# Minimum cards per topic (deck id), counted from the two sheets in ../shared/seeds: one card at
# least for every formula, identity, rule, numeric fact and explanation in that topic. A formula
# on both sheets is counted once, in the deck that owns it. Comments give the count.
TOPIC_MINIMUMS: dict[str, int] = {
    # Cheatsheet "Quantity / Formula" top table: entropy, cross-entropy, KL, JS, MI, perplexity,
    # BPC, MLE = min KL (8); formula sheet: CE = H + KL, entropy max log C (2).
    "information-theory": 10,
    # Density, entropy, KL to N(0, I), diagonal KL, sum of independents, reparameterisation,
    # thin shell (norm, std), random cosine (mean, std) (10).
    "gaussians": 10,
    # Core model equations: autoregressive (product, loss), ELBO bound, ELBO identity, GAN, optimal
    # discriminator, GAN = JSD, WGAN, flow change of variables, affine coupling (map, log-det),
    # EBM (density, gradient), score from energy, Langevin (15).
    "generative-models": 15,
    # MSE, MAE, Huber, BCE, categorical CE, contrastive, triplet, InfoNCE, their "why" lines, and
    # the "saying it out loud" on cross-entropy (10).
    "losses": 10,
    # Linear, logistic, softmax-CE gradients; why they coincide; BCE vs MSE on a sigmoid (2);
    # normal equation and ridge (2); softmax gradient p - y (cheatsheet) (8).
    "gradients": 8,
    # Sigmoid (form, derivative, max 0.25, range), tanh (derivative, max 1, range), ReLU'
    # (1[x>0]), leaky ReLU, GELU (exact, tanh approximation), SiLU (form, derivative), SwiGLU
    # (form, 2/3 width), softmax (form, stability shift, Jacobian, shift invariance),
    # temperature limits (19).
    "activations": 19,
    # Common core (x_hat, affine), BatchNorm (mean, variance, train vs inference), LayerNorm
    # (mean, variance), RMSNorm, one-line difference, pre- vs post-norm, QK-norm, the
    # "saying it out loud" on BatchNorm vs LayerNorm (12).
    "normalization": 12,
    # Scaled dot-product with mask, why sqrt(d_k), multi-head and d_h = d/H, complexity (scores,
    # memory, projections, crossover), MQA/GQA (KV heads, cache reduction, Llama-2 70B), RoPE
    # (angles, rotation, relative dot product), ALiBi (bias, slopes), the "saying it out loud" on
    # sqrt(d_k) (18).
    "attention-transformers": 18,
    # L2 (penalty, gradient, Gaussian prior), L1 (subgradient, Laplace prior), elastic net,
    # inverted dropout, label smoothing, weight decay vs L2 with the AdamW update, early stopping
    # (10).
    "regularization": 10,
    # SGD, momentum (update, effective step), Nesterov, AdaGrad, RMSProp, Adam (two moments, bias
    # correction, update, defaults beta1, beta2, eps, why bias correction), AdamW, warmup +
    # cosine, clipping, quick reference: LR 3e-4, betas (0.9, 0.95), weight decay 0.1, warmup
    # 0.5-2% (22).
    "optimizers": 22,
    # Precision, recall, F1, F-beta, TPR/FPR, ROC-AUC (meaning, imbalance), PR-AUC (AP, baseline),
    # accuracy under imbalance, Brier, ECE, R^2, RMSE/MAE/MAPE, DCG (both gains), NDCG, MRR (18).
    "metrics": 18,
    # Bayes, MLE, MAP (and the priors they imply), MAP -> MLE as n grows, bias-variance (three
    # terms), CLT, standard error, correlation, logit (10).
    "probability-statistics": 10,
    # Forward step, alpha/alpha-bar, closed form, posterior mean, posterior variance, simple
    # loss, cosine schedule, v-prediction, score <-> noise, reverse SDE, probability-flow ODE,
    # DSM, CFG, classifier guidance, flow matching (path, target, loss), Karras schedule; quick
    # reference: DDPM 1000 steps, DPM-Solver++ 15-25, CFG 7-8 (23).
    "diffusion-flow": 23,
    # He init (variance, residual scaling), batch scaling, Kaplan (N, D), Chinchilla loss and
    # constants, compute-optimal exponents, budget (N, D), Adam memory, ZeRO-3, pipeline bubble;
    # quick reference: 20 tokens/param, over-training 500-2000, good MFU 40-50% (16).
    "training-scaling": 16,
    # Bradley-Terry, reward-model loss, RLHF objective, optimal policy, implied reward, DPO, PPO
    # clip, GRPO advantage, MoE auxiliary loss, LoRA; quick reference: LoRA rank, LoRA LR (12).
    "alignment": 12,
    # Cosine similarity, L2 <-> cosine, BM25, RRF, InfoNCE and its MI bound, DCG@k / nDCG,
    # pass@k, FID, Inception Score, BLEU, ECE, Elo, agent success, speculative decoding; quick
    # reference: top-p, chunk size and overlap, RRF constant (20).
    "retrieval-evaluation": 20,
    # Parameter count (12Ld^2, per-layer split, embeddings Vd), training FLOPs 6ND, inference 2N,
    # forward/backward split, per-layer FLOPs/token, attention FLOPs 12Ldn, MoE active params,
    # KV cache bytes (and bytes per element), MFU, training memory 16-20 B/param, prefill vs
    # decode, serving memory (fp16, int8, int4, overhead), the "saying it out loud" on where the
    # compute goes (20).
    "inference-cost": 20,
}

# Topics each sheet contributes to (the sheet tag must appear on some card of the deck).
SHEETS_BY_TOPIC: dict[str, set[str]] = {
    "information-theory": {"sheet:cheatsheet", "sheet:formula-sheet"},
    "gaussians": {"sheet:cheatsheet"},
    "generative-models": {"sheet:cheatsheet"},
    "losses": {"sheet:formula-sheet"},
    "gradients": {"sheet:formula-sheet"},
    "activations": {"sheet:formula-sheet", "sheet:cheatsheet"},
    "normalization": {"sheet:formula-sheet", "sheet:cheatsheet"},
    "attention-transformers": {"sheet:formula-sheet", "sheet:cheatsheet"},
    "regularization": {"sheet:formula-sheet"},
    "optimizers": {"sheet:formula-sheet", "sheet:cheatsheet"},
    "metrics": {"sheet:formula-sheet"},
    "probability-statistics": {"sheet:formula-sheet"},
    "diffusion-flow": {"sheet:cheatsheet"},
    "training-scaling": {"sheet:cheatsheet"},
    "alignment": {"sheet:cheatsheet"},
    "retrieval-evaluation": {"sheet:cheatsheet"},
    "inference-cost": {"sheet:formula-sheet", "sheet:cheatsheet"},
}

# Explanations the sheets ask to say out loud (and the other prose paragraphs), per topic.
EXPLAIN_MINIMUMS: dict[str, int] = {
    "losses": 1,  # saying it out loud: why cross-entropy
    "gradients": 1,  # why they coincide
    "normalization": 2,  # saying it out loud: BatchNorm vs LayerNorm; one-line difference
    "attention-transformers": 1,  # saying it out loud: sqrt(d_k)
    "regularization": 1,  # weight decay vs L2
    "inference-cost": 1,  # saying it out loud: where the compute goes
}

# The cheatsheet's "Quick numeric reference" (and the numeric facts in the formula sheet's
# prose): each value must be drilled by some fact card, as a value or inside a range.
# (description, value or (low, high)). Percentages may be stored as percent or fraction.
SHEET_FACTS: list[tuple[str, float | tuple[float, float]]] = [
    ("1 nat in bits", 1.4427),
    ("English chars per token", 4),
    ("English entropy (human), bits/char", (0.6, 1.3)),
    ("Chinchilla tokens per parameter", 20),
    ("modern over-training, tokens/param", (500, 2000)),
    ("Adam memory, bytes/param", 16),
    ("good MFU, %", (40, 50)),
    ("typical LR (7B)", 3e-4),
    ("grad clip", 1.0),
    ("weight decay", 0.1),
    ("Adam beta1 (LLM)", 0.9),
    ("Adam beta2 (LLM)", 0.95),
    ("warmup, % of steps", (0.5, 2)),
    ("DDPM steps", 1000),
    ("DPM-Solver++ steps", (15, 25)),
    ("CFG scale", (7, 8)),
    ("LoRA rank", (16, 32)),
    ("LoRA LR", 2e-4),
    ("top-p", (0.9, 0.95)),
    ("RAG chunk size, tokens", 512),
    ("RAG chunk overlap, tokens", 64),
    ("RRF constant", 60),
    ("max of sigmoid'", 0.25),
    ("max of tanh'", 1),
    ("Adam default beta2", 0.999),
    ("Adam default eps", 1e-8),
    ("GELU tanh-approximation cubic coefficient", 0.044715),
    ("Chinchilla E", 1.69),
    ("Chinchilla A", 406.4),
    ("Chinchilla B", 410.7),
    ("Chinchilla alpha", 0.34),
    ("Chinchilla beta", 0.28),
]


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    return load_decks([builtin_decks_dir()], check=check_deck)


def all_cards() -> list[Card]:
    return list(builtin().cards)


def cards_of(kind: CardKind) -> list[Card]:
    return [card for card in all_cards() if card.kind is kind]


def _ids(card: Card) -> str:
    return card.key


def test_every_builtin_deck_loads_without_failures() -> None:
    result = builtin()
    problems = "\n".join(str(failure) for failure in result.failures)
    assert not result.failures, f"built-in decks failed to load:\n{problems}"
    assert len(result.decks) >= len(TOPIC_MINIMUMS)


def test_every_card_is_sourced_tagged_and_explained() -> None:
    missing_tag = [c.key for c in all_cards() if not (set(c.tags) & SHEETS)]
    missing_source = [c.key for c in all_cards() if not c.source.strip()]
    bare_symbols = [(c.key, s.name) for c in all_cards() for s in c.symbols if not s.meaning]
    assert not missing_tag, f"cards without a sheet tag: {missing_tag}"
    assert not missing_source, f"cards without a source: {missing_source}"
    assert not bare_symbols, f"symbols without a meaning: {bare_symbols}"


def test_every_card_that_is_answered_has_a_hint() -> None:
    # The issue: every card carries a short hint (explain cards reveal a model answer instead).
    missing_hint = [c.key for c in all_cards() if c.kind is not CardKind.EXPLAIN and not c.hint]
    assert not missing_hint, f"cards without a hint: {missing_hint}"


def test_cards_per_topic_cover_the_sheets() -> None:
    decks = {deck.id: deck for deck in builtin().decks}
    missing = sorted(set(TOPIC_MINIMUMS) - set(decks))
    assert not missing, f"topics without a deck: {missing}"
    short = {
        topic: (len(decks[topic].cards), minimum)
        for topic, minimum in TOPIC_MINIMUMS.items()
        if len(decks[topic].cards) < minimum
    }
    assert not short, f"topics with fewer cards than sheet items (have, need): {short}"
    total_minimum = sum(TOPIC_MINIMUMS.values())
    assert total_minimum >= 250  # the sheets hold about 300 items; the table must stay honest
    assert len(all_cards()) >= 300


def test_each_topic_carries_the_tags_of_its_sheets() -> None:
    decks = {deck.id: deck for deck in builtin().decks}
    for topic, sheets in SHEETS_BY_TOPIC.items():
        tags = {tag for card in decks[topic].cards for tag in card.tags}
        assert sheets <= tags, f"{topic}: missing {sorted(sheets - tags)}"
    used = {tag for card in all_cards() for tag in card.tags}
    assert SHEETS <= used


def test_explanations_from_the_sheets_are_there() -> None:
    decks = {deck.id: deck for deck in builtin().decks}
    for topic, minimum in EXPLAIN_MINIMUMS.items():
        explains = [c for c in decks[topic].cards if c.kind is CardKind.EXPLAIN]
        assert len(explains) >= minimum, topic
        for card in explains:
            assert len(card.model_answer.split()) >= 30, f"{card.key}: model answer too thin"


def test_every_kind_is_used() -> None:
    kinds = Counter(card.kind for card in all_cards())
    assert set(kinds) == set(CardKind)


# ----- the engine verifies the content -------------------------------------------------------


@pytest.mark.parametrize(
    "card",
    [
        c
        for c in all_cards()
        if c.kind is CardKind.FORMULA or (c.kind is CardKind.CLOZE and c.answer)
    ],
    ids=_ids,
)
def test_reference_answer_grades_as_correct(card: Card) -> None:
    from recall.formula import parse, render

    table = symbol_table(card)
    expr = parse(card.answer, table)
    assert render(expr).strip()
    verdict = grade(card, card.answer)
    assert verdict.is_correct, verdict.message
    # and the canonical re-spelling of the answer is accepted too
    assert grade(card, expr.to_text()).is_correct


IDENTITIES = [(card, index) for card in all_cards() for index in range(len(card.identities))]


@pytest.mark.parametrize(
    ("card", "index"), IDENTITIES, ids=[f"{c.key}#{i + 1}" for c, i in IDENTITIES]
)
def test_stated_identity_holds(card: Card, index: int) -> None:
    from recall.formula import check

    identity = card.identities[index]
    table = symbol_table(card, identities=True)  # with the names declared for the identities
    if identity.derivative_of is not None:
        ok, message = check_derivative(
            identity.derivative_of, identity.wrt or "", identity.rhs, table
        )
        assert ok, message
    else:
        verdict = check(identity.lhs, identity.rhs, table)
        assert verdict.is_correct, verdict.message


@pytest.mark.parametrize("card", cards_of(CardKind.NUMERIC), ids=_ids)
def test_numeric_template_is_finite_over_its_range_and_grades_itself(card: Card) -> None:
    from recall.formula import evaluate_constant, parse
    from recall.grading import substitute

    template = parse(card.answer, symbol_table(card))
    cases = exhaustive_cases(card.params) or []
    cases += list(corner_cases(card.params))
    cases += [draw(card.params, seed) for seed in range(40)]
    for values in cases:
        value = evaluate_constant(substitute(template, values))
        assert math.isfinite(value), values
    for seed in (0, 1, 2, 12345):
        question = Question.draw(card, seed)
        value = evaluate_constant(question.expected)
        verdict = grade(question, repr(value))
        assert verdict.is_correct, (seed, verdict.message)
        assert verdict.worked
        for placeholder in [p.name for p in card.params]:
            assert "{" + placeholder + "}" in card.prompt


@pytest.mark.parametrize("card", cards_of(CardKind.FACT), ids=_ids)
def test_fact_value_sits_where_its_card_says(card: Card) -> None:
    assert grade(card, reference_answer(card)).is_correct
    if card.value_range is not None:
        low, high = card.value_range
        assert low <= high
        assert grade(card, repr((low + high) / 2)).is_correct
        assert not grade(card, repr(high * 3 + 1)).is_correct
    else:
        assert card.value is not None
        assert not grade(card, repr(card.value * 3 + 1)).is_correct


@pytest.mark.parametrize(("what", "value"), SHEET_FACTS, ids=[w for w, _ in SHEET_FACTS])
def test_sheet_fact_is_drilled(what: str, value: float | tuple[float, float]) -> None:
    def same(a: float, b: float) -> bool:
        return any(math.isclose(a * scale, b, rel_tol=1e-9) for scale in (1, 100, 0.01))

    facts = cards_of(CardKind.FACT)
    if isinstance(value, tuple):
        found = [
            c
            for c in facts
            if c.value_range and all(same(v, w) for v, w in zip(value, c.value_range, strict=True))
        ]
    else:
        found = [c for c in facts if c.value is not None and same(value, c.value)]
        found += [
            c
            for c in facts
            if c.value_range
            and (c.value_range[0] <= value <= c.value_range[1])
            and value in c.value_range
        ]
    assert found, f"no fact card drills {what} = {value}"


@pytest.mark.parametrize(
    "card",
    [
        c
        for c in all_cards()
        if c.kind is CardKind.REVERSE or (c.kind is CardKind.CLOZE and c.accept)
    ],
    ids=_ids,
)
def test_every_accepted_name_is_accepted(card: Card) -> None:
    for name in card.accept:
        assert grade(card, name).is_correct, name


@pytest.mark.parametrize("card", cards_of(CardKind.EXPLAIN), ids=_ids)
def test_explain_cards_said_aloud_are_self_rated(card: Card) -> None:
    """Nothing typed (said out loud): self-rated against the model answer, points or not."""
    verdict = grade(card, "")
    assert verdict.method == "self"
    assert card.model_answer.strip()


@pytest.mark.parametrize("card", cards_of(CardKind.EXPLAIN), ids=_ids)
def test_typed_explanations_are_checked_when_the_card_has_points(card: Card) -> None:
    verdict = grade(card, "anything at all")
    assert verdict.method == ("points" if card.points else "self")
    if card.points:
        assert verdict.status is Status.INCORRECT
        assert len(verdict.points) == len(card.points)
