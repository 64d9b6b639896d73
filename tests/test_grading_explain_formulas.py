"""A key point stated as a formula inside prose is credited; a wrong formula is not (issue 23).

The sentences here are written for this file, the way a learner types an identity or an update
rule in the middle of an explanation: Unicode from the keyboard (``²``, ``·``, ``‖…‖``, ``≈``,
``→``, ``−``, ``dₖ``, Greek letters), both sides of an ``=``, words and punctuation around the
formula, an equivalent form (expanded, factored, sides swapped, the equation rearranged), a
named function applied (``p_data(x)``), divergence bars. Each is checked on the formula path
alone (the point's words are not consulted), so a positive here is the formula's doing and a
negative shows the formula path does not credit a wrong formula (sign, factor, swapped terms).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recall.cards.loader import load_decks, read_deck
from recall.cards.model import Card, CardKind, KeyPoint, SymbolSpec
from recall.grading import check_deck, grade
from recall.grading.dispatch import explain_table
from recall.grading.explain_formulas import (
    MAX_EQUATIONS,
    MAX_NUMBERS,
    MAX_SPAN_CHARS,
    MAX_SPANS,
    FormulaGrader,
    candidates,
    formula_sides,
)
from recall.paths import builtin_decks_dir


@cache
def cards() -> dict[str, Card]:
    loaded = load_decks([builtin_decks_dir()])
    assert loaded.ok, loaded.failures
    return {card.key: card for card in loaded.cards if card.kind is CardKind.EXPLAIN}


def by_formula(key: str, point: int, text: str) -> str | None:
    """What the formula path alone finds for ``point`` of the built-in card ``key``."""
    card = cards()[key]
    assert card.points[point].formulas, f"{key} point {point} declares no formulas"
    return FormulaGrader.of(text, explain_table(card)).evidence(card.points[point].formulas)


def synthetic(*formulas: str) -> Card:
    return Card("d", "c", CardKind.EXPLAIN, "?", points=(KeyPoint("s", formulas=formulas),))


def made(card: Card, text: str) -> bool:
    return bool(FormulaGrader.of(text, explain_table(card)).evidence(card.points[0].formulas))


STATED = [
    # a factor times a quantity named in prose is offered alone
    ("optimizers/explain-residual-scaling", 2, "so each branch's variance * 1/(2L) adds up to one"),
    ("alignment/dpo-explain", 0, "so the optimum is π_ref · e^(r/β) / Z, a reweighting"),
    # norms and dot products, Unicode squares, both sides of an =
    ("retrieval-evaluation/l2-cosine-explain", 0, "For unit vectors ||a−b||² = 2 − 2cos θ, so"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "normalised: ‖u − v‖² = 2(1 − cos θ)."),
    ("retrieval-evaluation/l2-cosine-explain", 0, "since |a|=|b|=1, dist^2 = 2 - 2·cos(θ) hence"),
    # an update rule written inline, expanded, factored and rearranged
    ("regularization/explain-weight-decay-vs-l2", 0, "SGD: w − η(g + 2λw) = (1 − 2ηλ)w − ηg."),
    ("regularization/explain-weight-decay-vs-l2", 0, "the step becomes w ← (1−2ηλ)·w − η·g so"),
    ("regularization/explain-weight-decay-vs-l2", 0, "With SGD the new weight is w(1 − 2ηλ) − ηg."),
    ("regularization/explain-weight-decay-vs-l2", 0, "w − 2ηλw − ηg, i.e. a decay step."),
    # a named function applied, and the point's formula in another form
    ("generative-models/explain-gan-jsd", 0, "For fixed G, D*(x) = p_data(x)/(p_data(x)+p_g(x))."),
    ("generative-models/explain-gan-jsd", 0, "the best D is D* = 1/(1 + p_g/p_data) everywhere"),
    ("generative-models/explain-gan-jsd", 1, "put back, V = 2·JS(p_data‖p_g) − 2 log 2."),
    ("generative-models/explain-gan-jsd", 1, "the objective becomes 2 JS(p_data || p_g) - log 4"),
    ("information-theory/explain-js", 4, "the generator minimises 2·JS(p_data‖p_g) − 2 log 2"),
    # "so var(q·k) = d_k, hence…": words around, subscripts as typed, sides swapped
    ("attention-transformers/explain-sqrt-dk", 0, "so var(q·k) = dₖ, hence the logits grow"),
    ("attention-transformers/explain-sqrt-dk", 0, "we get d_k = Var(q·k) for unit entries"),
    ("attention-transformers/explain-sqrt-dk", 3, "so the logit is q·k/√dₖ and var is back to 1"),
    # label smoothing: a convex mix, and the true class's value
    ("regularization/explain-label-smoothing", 0, "the target becomes (1−ε)·onehot + ε/C"),
    ("regularization/explain-label-smoothing", 0, "y_smooth = (1 − ε) y + ε/C, so"),
    ("regularization/explain-label-smoothing", 0, "the true class gets 1 − ε + ε/C, others ε/C"),
    # standard errors
    ("probability-statistics/explain-clt", 0, "a mean of n draws has variance σ²/n around it"),
    ("probability-statistics/explain-clt", 1, "the error bar is SE = σ/√n, so"),
    ("probability-statistics/explain-clt", 1, "the standard error σ_mean = σ·n^(−1/2)."),
    ("probability-statistics/explain-clt", 3, "for accuracy it is SE = √(p(1 − p)/n)"),
    # bias correction with subscripts and hats as typed
    ("optimizers/explain-bias-correction", 2, "m̂_t = m_t/(1 − β₁^t) undoes the zero start"),
    ("optimizers/explain-bias-correction", 2, "we divide: m_hat = m / (1 - β^t), unbiased"),
    ("optimizers/explain-bias-correction", 2, "likewise v̂ = v/(1 − β₂^t)."),
    # glued products
    ("inference-cost/explain-where-compute-goes", 0, "C ≈ 6ND FLOPs: 2ND forward, 4ND back"),
    ("inference-cost/explain-where-compute-goes", 0, "training compute is C = 6·N·D, so"),
    # derivatives written with ∂ on the left, σ applied as the sigmoid
    ("gradients/why-mse-sigmoid-trains-badly", 0, "with BCE, ∂L/∂w = (p − y)·x, the error"),
    ("gradients/why-mse-sigmoid-trains-badly", 0, "the BCE gradient dL/dw = x(p - y)"),
    ("gradients/why-mse-sigmoid-trains-badly", 1, "MSE gives (p − y)·σ(z)(1 − σ(z))·x instead"),
    # an equation rearranged: ratio and difference forms
    ("regularization/explain-early-stopping", 3, "like ridge with λ ≈ 1/(η t)"),
    ("regularization/explain-early-stopping", 3, "the match is λ·η·t ≈ 1"),
    ("regularization/explain-early-stopping", 3, "roughly 1/λ ≈ ηt"),
    ("regularization/explain-early-stopping", 2, "ridge keeps a fraction 1/(1 + λ/h) of it"),
    ("probability-statistics/explain-log-odds", 0, "it says log(p/(1−p)) = w·x + b"),
    ("probability-statistics/explain-log-odds", 0, "ln(p/(1-p)) = wx + b, linear in x"),
    ("probability-statistics/explain-log-odds", 0, "log((1−p)/p) = −(w·x + b), the same thing"),
    ("probability-statistics/explain-log-odds", 0, "equivalently p = σ(w·x + b)"),
    ("information-theory/explain-js", 0, "with the mixture m = ½(p + q)"),
    ("optimizers/explain-residual-scaling", 2, "variance (1/√(2L))² = 1/(2L) per branch"),
    ("alignment/lora-explain", 2, "params drop from d·k to rd + rk per matrix"),
    ("gaussians/explain-reparameterization", 1, "write z = μ + σ ⊙ ε with ε ~ N(0, I)"),
    ("gaussians/explain-reparameterization", 1, "so z = σ·ε + μ."),
    ("gaussians/explain-random-cosine", 1, "the cosine's std is about d^(−1/2)"),
    ("regularization/explain-l1-zeros", 0, "the gradient of λw² is 2λw, which vanishes"),
    ("regularization/explain-l1-zeros", 2, "L1's subgradient λ·sign(w) is a constant pull"),
    ("retrieval-evaluation/rrf-explain", 2, "each list contributes 1/(k + rank)"),
    ("diffusion-flow/forward-variance-preserving", 1, "(1 − β_t) + β_t = 1 so it stays one"),
    ("information-theory/explain-perplexity", 0, "perplexity = e^L with L in nats"),
    ("losses/explain-infonce", 2, "so I(q; k) ≥ log N − L holds"),
    ("metrics/dcg-conventions", 1, "both divide by log₂(i + 1), so"),
    ("retrieval-evaluation/speculative-decoding-explain", 3, "(1 − α^(k+1))/(1 − α) tokens"),
    ("attention-transformers/explain-rope", 1, "pair i turns at θ_i = 10000^(−2i/d) per step"),
    # chains, glued words, quotes and dollars, a bracket around the whole sentence
    ("retrieval-evaluation/l2-cosine-explain", 0, "‖a−b‖² = ‖a‖² + ‖b‖² − 2a·b = 2 − 2cos θ"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "dist² = 2-2cosθ"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "we get `2 - 2*cos(theta)` exactly"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "the squared distance is $2 - 2\\cos\\theta$"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "(that is, ||x−y||^2 = 2(1−cos θ))"),
    ("attention-transformers/explain-sqrt-dk", 3, "the weights are softmax(q·k/√d_k) over keys"),
    ("attention-transformers/explain-sqrt-dk", 0, "(so Var[q·k] = d_k)"),
    ("attention-transformers/explain-sqrt-dk", 0, "d_k = var(Σ q_i k_i) since each term adds one"),
    ("regularization/explain-weight-decay-vs-l2", 0, "it is w_{t+1} = w_t − η(g_t + 2λw_t)"),
    ("regularization/explain-weight-decay-vs-l2", 0, "so w_new = w·(1 − 2·η·λ) − η·g"),
    ("regularization/explain-label-smoothing", 0, "y_ls = (1-ε)·y_onehot + ε/C"),
    ("information-theory/explain-perplexity", 0, "PPL = exp(CE) in nats"),
    ("retrieval-evaluation/elo-explain", 1, "Elo's expected score is 1/(1+10^((R_B-R_A)/400))"),
    ("retrieval-evaluation/elo-explain", 1, "P(A beats B) = σ(s_A − s_B), a logistic"),
    ("inference-cost/explain-where-compute-goes", 0, "C≈6ND."),
    ("inference-cost/explain-where-compute-goes", 0, "FLOPs ≈ 6 × N × D"),
    ("probability-statistics/explain-clt", 1, "SE=σ/√n"),
    ("probability-statistics/explain-clt", 3, "SE = sqrt(p*(1-p)/n) = sqrt(0.8*0.2/1000)"),
    ("optimizers/explain-bias-correction", 2, "so m̂ₜ = mₜ / (1 − β₁ᵗ)"),
    ("gaussians/explain-reparameterization", 1, "z = mu + sigma * eps, eps ~ N(0,1)"),
    ("probability-statistics/explain-log-odds", 0, "logit(p) := ln(p/(1−p)) = wᵀx + b"),
    ("regularization/explain-early-stopping", 3, "λ_eff ≈ 1/(ηt)"),
    ("generative-models/explain-gan-jsd", 0, "D_G*(x) = p_data(x) / (p_data(x) + p_G(x))"),
    ("inference-cost/explain-inference-regimes", 3, "each decode step is ~2N FLOPs, so"),
    ("training-scaling/explain-overtraining", 2, "serving costs 2·N per token"),
    ("training-scaling/explain-compute-optimal-exponents", 1, "so D/N ∝ C^(b−a), constant"),
    ("training-scaling/explain-compute-optimal-exponents", 0, "with C = 6ND, a + b = 1"),
    ("training-scaling/explain-compute-optimal-exponents", 0, "so b = 1 − a"),
    ("generative-models/explain-flows", 2, "a dense Jacobian's determinant is O(d³)"),
    # operators said in words between math, braces without LaTeX, sums, digits for subscripts
    ("probability-statistics/explain-clt", 1, "the standard error is σ over √n"),
    ("probability-statistics/explain-clt", 1, "the error is σ/√n over all questions"),
    ("probability-statistics/explain-clt", 0, "variance σ squared over n"),
    ("probability-statistics/explain-clt", 3, "SE = sqrt{p(1-p)/n}"),
    ("optimizers/explain-bias-correction", 2, "m̂ = m/(1 − β_{1}^{t})"),
    ("information-theory/explain-perplexity", 0, "PPL = e^{L}"),
    ("generative-models/explain-ebm-langevin", 0, "p(x) = e^{-E(x)} / Z"),
    ("generative-models/explain-ebm-langevin", 0, "p(x) = exp(−E(x))/Z with Z intractable"),
    ("retrieval-evaluation/rrf-explain", 2, "RRF(d) = Σ_r 1/(k + r(d))"),
    ("retrieval-evaluation/bm25-explain", 1, "the cap is k1+1"),
    ("retrieval-evaluation/bm25-explain", 1, "it levels off at k₁ + 1"),
    ("gradients/why-mse-sigmoid-trains-badly", 0, "grad = (ŷ − y)·x"),
    ("attention-transformers/explain-gqa", 2, "the cache shrinks by h/g"),
    ("gaussians/explain-thin-shell", 1, "so ‖z‖ ≈ √d"),
    ("gaussians/explain-thin-shell", 1, "the norm sits near d^(1/2)"),
    ("information-theory/explain-js", 0, "the midpoint m = 0.5·(p+q)"),
    ("alignment/lora-explain", 2, "r × (d + k) instead of d × k"),
    ("retrieval-evaluation/speculative-decoding-explain", 3, "(1 - α^{k+1}) / (1 - α) tokens"),
    ("metrics/dcg-conventions", 1, "divide by log2(i+1)"),
    ("probability-statistics/explain-map-mle", 2, "the prior adds w²/(2τ²)"),
    ("probability-statistics/explain-map-mle", 3, "Laplace gives |w|/b"),
    ("attention-transformers/explain-rope", 1, "θ_i = 10000^{-2i/d}"),
    ("training-scaling/explain-compute-optimal-exponents", 3, "a = β/(α+β) ≈ 0.45"),
    ("gradients/why-they-coincide", 2, "d/dθ of the NLL is A′(θ) − y"),
    # sides swapped, terms moved across, a second form, ** for powers, ∇ on the left
    ("retrieval-evaluation/l2-cosine-explain", 0, "2 − 2cos θ = ‖a − b‖² when both are unit"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "‖a − b‖² = 2 − 2a·b for unit vectors"),
    ("probability-statistics/explain-log-odds", 0, "w·x + b − log(p/(1−p)) = 0"),
    ("probability-statistics/explain-log-odds", 0, "odds: p/(1−p) = e^{w·x+b}"),
    ("optimizers/explain-bias-correction", 2, "m_hat = m / (1 - beta1**t)"),
    ("regularization/explain-early-stopping", 3, "λ ≈ (ηt)^(-1)"),
    ("regularization/explain-weight-decay-vs-l2", 0, "w_new = (1-2*eta*lambda)*w - eta*g"),
    ("regularization/explain-label-smoothing", 0, "ε/C + (1−ε)·y per class"),
    ("attention-transformers/explain-sqrt-dk", 0, "Var[q^T k] = d_k"),
    ("attention-transformers/explain-sqrt-dk", 3, "(q·k)/√(d_k)"),
    ("attention-transformers/explain-sqrt-dk", 3, "q·k·d_k^(−½)"),
    ("probability-statistics/explain-clt", 1, "σ_x̄ = σ/√n"),
    ("generative-models/explain-gan-jsd", 0, "D*(x) = 1/(1 + p_g(x)/p_data(x))"),
    ("gradients/why-mse-sigmoid-trains-badly", 1, "∂L/∂w = (σ(z) − y)·σ(z)(1−σ(z))·x"),
    ("regularization/explain-l1-zeros", 0, "∇_w λ‖w‖² = 2λw"),
    # asides in brackets, ± and ≪, a dangling ×, + const, sgn
    ("attention-transformers/explain-gqa", 2, "KV memory drops by h/g (h query heads, g groups)."),
    ("attention-transformers/explain-gqa", 2, "cache ∝ g instead of h, i.e. (h/g)× smaller"),
    ("gaussians/explain-thin-shell", 1, "‖z‖ ≈ √d ± 0.7"),
    ("gaussians/explain-random-cosine", 1, "Var[cos] = 1/d, std = 1/√d ≈ 0.036 at d = 768"),
    ("losses/explain-infonce", 2, "the bound is MI ≥ log(N) − L_InfoNCE"),
    ("information-theory/explain-js", 0, "JS = ½KL(p‖m) + ½KL(q‖m), m = (p+q)/2"),
    ("retrieval-evaluation/speculative-decoding-explain", 3, "E[tokens] = (1−α^(k+1))/(1−α)"),
    ("gradients/why-they-coincide", 2, "∂(A(θ) − yθ)/∂θ = A'(θ) − y"),
    ("optimizers/explain-residual-scaling", 2, "Var scales by (2L)^-1"),
    ("alignment/lora-explain", 2, "params: r·(d+k) ≪ d·k"),
    ("regularization/explain-l1-zeros", 0, "∂/∂w (λw²) = 2λw → 0 as w → 0"),
    ("regularization/explain-l1-zeros", 2, "the L1 pull λ sgn(w) never shrinks"),
    ("probability-statistics/explain-map-mle", 2, "−log N(w; 0, τ²) = w²/(2τ²) + const"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "|x - y|^2 = |x|^2 + |y|^2 - 2x.y = 2 - 2cos(θ)"),
]

WRONG = [
    ("optimizers/explain-residual-scaling", 2, "so each branch's variance * 1/(4L) adds up"),
    ("alignment/dpo-explain", 0, "so the optimum is π_ref · e^(−r/β) / Z, a reweighting"),
    # sign, factor, swapped terms: never credited by the formula
    ("retrieval-evaluation/l2-cosine-explain", 0, "For unit vectors ||a−b||² = 2 + 2cos θ."),
    ("retrieval-evaluation/l2-cosine-explain", 0, "||a−b||² = 1 − 2cos θ for unit vectors"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "||a-b||^2 = 2cos θ - 2"),
    ("regularization/explain-weight-decay-vs-l2", 0, "under SGD w ← (1 − ηλ)w − ηg"),
    ("regularization/explain-weight-decay-vs-l2", 0, "under SGD w ← (1 + 2ηλ)w − ηg"),
    ("regularization/explain-weight-decay-vs-l2", 0, "under SGD w ← (1 − 2ηλ)w + ηg"),
    ("generative-models/explain-gan-jsd", 0, "D*(x) = p_g(x)/(p_data(x)+p_g(x))"),
    ("generative-models/explain-gan-jsd", 0, "D* = p_data/(p_data − p_g)"),
    ("generative-models/explain-gan-jsd", 1, "it becomes 2 JS(p_data || p_g) + 2 log 2"),
    ("generative-models/explain-gan-jsd", 2, "its minimum is log 4"),
    ("attention-transformers/explain-sqrt-dk", 0, "Var(q·k) = √d_k"),
    ("attention-transformers/explain-sqrt-dk", 0, "Var(q·k) = 1/d_k"),
    ("attention-transformers/explain-sqrt-dk", 0, "var(q·k) ≠ d_k"),
    ("attention-transformers/explain-sqrt-dk", 3, "so we use q·k/dₖ"),
    ("regularization/explain-label-smoothing", 0, "the target becomes (1−ε)·onehot + ε"),
    ("regularization/explain-label-smoothing", 0, "the target becomes ε·onehot + (1−ε)/C"),
    ("regularization/explain-label-smoothing", 0, "target = (1+ε)·y − ε/C"),
    ("probability-statistics/explain-clt", 1, "the error bar is SE = σ/n"),
    ("probability-statistics/explain-clt", 3, "for accuracy SE = √(p(1 + p)/n)"),
    ("optimizers/explain-bias-correction", 2, "m̂ = m·(1 − β^t)"),
    ("optimizers/explain-bias-correction", 2, "m̂ = m/(1 + β^t)"),
    ("optimizers/explain-bias-correction", 2, "m̂ = m/(1 − β)^t"),
    ("inference-cost/explain-where-compute-goes", 0, "training costs C ≈ 2ND"),
    ("inference-cost/explain-where-compute-goes", 0, "training costs C ≈ 6N/D"),
    ("gradients/why-mse-sigmoid-trains-badly", 0, "with BCE, dL/dw = (y − p)·x"),
    ("gradients/why-mse-sigmoid-trains-badly", 1, "with MSE you get (p − y)·σ(z)·x"),
    ("regularization/explain-early-stopping", 3, "roughly λ ≈ ηt"),
    ("regularization/explain-early-stopping", 3, "roughly λ ≈ 1/η + t"),
    ("regularization/explain-early-stopping", 2, "ridge keeps λ/(h + λ) of each direction"),
    ("probability-statistics/explain-log-odds", 0, "log(p/(1−p)) = −(w·x + b)"),
    ("probability-statistics/explain-log-odds", 0, "log((1−p)/p) = w·x + b"),
    ("probability-statistics/explain-log-odds", 0, "log(p) = w·x + b"),
    ("alignment/lora-explain", 2, "params drop from d·k to r·d·k per matrix"),
    ("alignment/lora-explain", 2, "params drop from d·k to r + d + k"),
    ("gaussians/explain-reparameterization", 1, "so z = μ·ε + σ."),
    ("gaussians/explain-reparameterization", 1, "so z = μ + σ²ε."),
    ("gaussians/explain-random-cosine", 1, "the cosine's variance is about 1/d²"),
    ("regularization/explain-l1-zeros", 0, "the gradient of the penalty is 2λ/w"),
    ("retrieval-evaluation/rrf-explain", 2, "each list contributes k/(k + r)"),
    ("diffusion-flow/forward-variance-preserving", 1, "(1 − β_t)² + β_t = 1 holds"),
    ("diffusion-flow/forward-variance-preserving", 1, "the variance becomes 1 after a while"),
    ("information-theory/explain-perplexity", 0, "PPL = exp(−L)"),
    ("losses/explain-infonce", 2, "so I(q; k) ≥ L − log N holds"),
    ("attention-transformers/explain-sqrt-dk", 0, "(so Var[q·k] = d_k²)"),
    ("attention-transformers/explain-sqrt-dk", 3, "the weights are softmax(q·k·√d_k)"),
    ("retrieval-evaluation/elo-explain", 1, "Elo's expected score is 1/(1+10^((R_A-R_B)/400))"),
    ("regularization/explain-label-smoothing", 0, "y_ls = (1-ε)·y_onehot + ε"),
    ("information-theory/explain-perplexity", 0, "PPL = exp(−CE) in nats"),
    ("regularization/explain-early-stopping", 3, "λ_eff ≈ ηt"),
    ("generative-models/explain-gan-jsd", 0, "D_G*(x) = p_G(x) / (p_data(x) + p_G(x))"),
    ("gaussians/explain-reparameterization", 1, "z = mu + eps, eps ~ N(0,1)"),
    ("regularization/explain-weight-decay-vs-l2", 0, "it is w_{t+1} = w_t − η(g_t − 2λw_t)"),
    ("inference-cost/explain-inference-regimes", 3, "each decode step is ~6N FLOPs"),
    ("training-scaling/explain-compute-optimal-exponents", 1, "so D/N ∝ C^(a−b)"),
    ("training-scaling/explain-compute-optimal-exponents", 0, "so a − b = 1"),
    ("training-scaling/explain-compute-optimal-exponents", 0, "so a + b ≠ 1"),
    ("generative-models/explain-flows", 2, "a dense Jacobian's determinant is O(d²)"),
    ("probability-statistics/explain-clt", 1, "the standard error is σ over n"),
    ("probability-statistics/explain-clt", 0, "variance σ over n"),
    ("attention-transformers/explain-gqa", 2, "the cache shrinks by g/h"),
    ("gaussians/explain-thin-shell", 1, "the norm sits near d"),
    ("information-theory/explain-js", 0, "the midpoint m = p + q"),
    ("metrics/dcg-conventions", 1, "divide by log2(i)"),
    ("generative-models/explain-ebm-langevin", 0, "p(x) = exp(E(x))/Z"),
    ("probability-statistics/explain-map-mle", 2, "the prior adds w/(2τ²)"),
    ("training-scaling/explain-compute-optimal-exponents", 3, "a = α/(α+β) ≈ 0.45"),
    ("retrieval-evaluation/bm25-explain", 1, "the cap is k2+1"),
    ("gradients/why-they-coincide", 2, "d/dθ of the NLL is y − A′(θ)"),
    ("retrieval-evaluation/l2-cosine-explain", 0, "‖a − b‖² = 2 + 2a·b for unit vectors"),
    ("probability-statistics/explain-log-odds", 0, "odds: p/(1−p) = e^{−(w·x+b)}"),
    ("probability-statistics/explain-log-odds", 0, "w·x + b + log(p/(1−p)) = 0"),
    ("generative-models/explain-gan-jsd", 0, "D*(x) = 1/(1 + p_data(x)/p_g(x))"),
    ("regularization/explain-l1-zeros", 0, "∇_w λ‖w‖² = λw"),
    ("information-theory/explain-perplexity", 0, "ppl = log(L)"),
    ("retrieval-evaluation/speculative-decoding-explain", 3, "E[tokens] = (1−α^k)/(1−α)"),
    ("optimizers/explain-residual-scaling", 2, "Var scales by (2L)^-2"),
    ("probability-statistics/explain-map-mle", 2, "−log N(w; 0, τ²) = w²/τ² + const"),
    ("attention-transformers/explain-gqa", 2, "KV memory drops by g/h (h query heads)."),
]


@pytest.mark.parametrize(("key", "point", "text"), STATED, ids=lambda v: str(v)[:30])
def test_a_point_stated_as_a_formula_in_prose_is_credited(key: str, point: int, text: str) -> None:
    assert by_formula(key, point, text) is not None
    assert grade(cards()[key], text).points[point].made


@pytest.mark.parametrize(("key", "point", "text"), WRONG, ids=lambda v: str(v)[:30])
def test_a_wrong_formula_does_not_credit_the_point(key: str, point: int, text: str) -> None:
    assert by_formula(key, point, text) is None


def test_the_sentences_cover_at_least_ten_cards() -> None:
    assert len({key for key, _, _ in STATED}) >= 10
    assert len({key for key, _, _ in WRONG}) >= 10


def test_a_run_ends_at_prose_and_at_punctuation_outside_brackets() -> None:
    found = candidates("so var(q·k) = d_k, hence the softmax saturates; and N(0, 1) is fine.")
    assert found.parts[:3] == ("var(q·k)", "q·k", "d_k")  # an unknown call's argument too
    assert found.equations[0] == ("var(q·k)", "d_k")
    assert "N(0, 1)" in found.parts  # a comma inside brackets does not end the run
    # a bracket cut off by the relation is not part of the formula
    assert candidates("(that is, z = μ + σε) as said").equations == (("z", "μ + σε"),)
    # prose words joined by hyphens are not a difference
    assert candidates("the log-odds are linear").parts == ()


def test_an_equation_point_is_made_only_by_an_equation() -> None:
    card = synthetic("lambda = 1/(eta*t)")
    assert made(card, "so λ = 1/(ηt) here")
    assert made(card, "so ηt·λ = 1 here")
    assert made(card, "so 2λ = 2/(ηt) here")  # both sides times a constant
    assert not made(card, "the strength is 1/(ηt)")  # one side alone is not the equation
    assert not made(card, "so λ = 1/(2ηt) here")
    assert not made(card, "so λ ≠ 1/(ηt) here")


def test_a_chain_of_equalities_states_its_first_side_equal_to_its_last() -> None:
    card = synthetic("lambda = 1/(eta*t)")
    assert made(card, "λ = 1/T_eff = 1/(ηt) after a long run")  # neither link alone
    assert not made(card, "λ = 1/(ηt) + 1 ≈ 1/(2ηt)")  # each written equality is wrong
    assert not made(card, "λ ≤ 1/(ηt)·2 = 1/(ηt)")  # a bound is no link of the chain
    found = candidates("E‖x‖² = Σ_i E[x_i²] = n, so E‖x‖ ≈ √n")
    assert ("E‖x‖²", "n") in found.equations


def test_a_rearranged_linear_equation_is_the_same_equation() -> None:
    card = synthetic("w_new = w - eta*(g + 2*lambda*w)")
    assert made(card, "w_new = (1 − 2ηλ)w − ηg")
    assert made(card, "w − w_new = η(g + 2λw)")
    assert made(card, "w_new + ηg = (1 − 2ηλ)·w")
    assert not made(card, "w − w_new = η(g − 2λw)")
    assert not made(card, "w_new = (1 − 2ηλ)w + ηg")


def test_an_identity_is_made_only_by_its_own_two_sides() -> None:
    card = synthetic("(1 - beta) + beta = 1")
    assert made(card, "(1 − β) + β = 1")
    assert made(card, "1 = β + (1 − β)")
    assert not made(card, "β/β = 1")  # true, but another identity
    assert not made(card, "1 = 1")


def test_a_part_must_use_the_point_formulas_names() -> None:
    card = synthetic("(1 - beta) + beta")
    assert not made(card, "the variance stays 1")
    constant = synthetic("-log(4)")
    assert made(constant, "its minimum is −2 log 2 there")
    assert not made(constant, "its minimum is -log(4x)")


def test_renaming_is_one_to_one() -> None:
    # beta_1 and beta_2 cannot both be the point's beta
    card = synthetic("m/(1 - beta^t)")
    assert made(card, "m_t/(1 − β₁^t)")
    assert not made(card, "m_t/(1 − β₁^t β₂)")


def test_deck_formulas_may_be_equations_whose_sides_must_parse(tmp_path: Path) -> None:
    deck = """\
[deck]
id = "talk"
name = "Talk"
topic = "Testing"

[[card]]
id = "why"
kind = "explain"
prompt = "Why?"
model_answer = "Because."

[[card.points]]
say = "The strength is one over the steps."
formulas = ["lambda = 1/(eta*t)"]
"""
    path = tmp_path / "talk.toml"
    path.write_text(deck, encoding="utf-8")
    loaded, errors = read_deck(path, check=check_deck)
    assert loaded is not None, errors
    path.write_text(deck.replace("1/(eta*t)", "1/(eta*t"), encoding="utf-8")
    loaded, errors = read_deck(path, check=check_deck)
    assert loaded is None
    assert any("key point formula" in str(error) for error in errors)
    assert formula_sides("a = b") == ("a", "b") and formula_sides("a + b") == ("a + b",)


def test_candidates_are_bounded() -> None:
    many = " and ".join(f"x{i} = {i}*y" for i in range(2_000))[:4_000]
    found = candidates(many)
    assert len(found.parts) <= MAX_SPANS and len(found.equations) <= MAX_EQUATIONS
    assert len(candidates(" and ".join(str(i) for i in range(2_000))).numbers) <= MAX_NUMBERS
    long = "(" * 10 + " + ".join(["x"] * 200) + ")" * 10
    assert all(len(part) <= MAX_SPAN_CHARS for part in candidates(long).parts)
    assert candidates(long).parts == ()


def test_hostile_formulas_are_refused_by_the_engine_limits() -> None:
    card = synthetic("x^2")
    hostile = "so 9^9^9^9^9 = " + "(" * 80 + "x" + ")" * 80 + " = x^(10^5000)"
    assert not made(card, hostile)
    assert made(card, hostile + ", and so x·x = x² holds")


def test_the_comparisons_of_one_explanation_stop_at_the_budget() -> None:
    card = cards()["retrieval-evaluation/l2-cosine-explain"]
    grader = FormulaGrader.of("so ||a−b||² = 2 − 2cos θ", explain_table(card))
    grader.deadline = 0.0  # already spent: nothing more is compared, nothing credited
    assert grader.evidence(card.points[0].formulas) is None


@pytest.mark.parametrize(
    ("key", "point", "text"),
    [
        ("probability-statistics/explain-clt", 3, "for accuracy SE = √(p(1 + p)/n)"),
        ("regularization/explain-early-stopping", 2, "ridge keeps λ/(h + λ) of each direction"),
        ("probability-statistics/explain-log-odds", 0, "log(p/(1−p)) = −(w·x + b)"),
        ("alignment/lora-explain", 2, "the trainable count becomes r·d + k"),
        # the phrasing's words on both sides of a wrong equation, or of a denial
        ("information-theory/explain-perplexity", 0, "PPL = exp(−CE) in nats"),
        ("training-scaling/explain-compute-optimal-exponents", 0, "so a + b ≠ 1"),
    ],
)
def test_a_phrasing_read_off_a_wrong_formula_does_not_credit(
    key: str, point: int, text: str
) -> None:
    """The point's words occur in the text only inside a formula the engine grades wrong."""
    assert not grade(cards()[key], text).points[point].made


@pytest.mark.parametrize(
    ("key", "point", "text"),
    [
        ("probability-statistics/explain-clt", 3, "it is the root of p times 1 minus p over n"),
        ("regularization/explain-early-stopping", 2, "a share h over h plus λ survives ridge"),
    ],
)
def test_the_same_phrasing_in_words_still_credits(key: str, point: int, text: str) -> None:
    assert grade(cards()[key], text).points[point].made


def test_every_point_of_one_explanation_is_read_with_its_own_names() -> None:
    """Parses are cached per explanation, by the point's table: a point read later must never
    see a part parsed with an earlier point's names (b is no name of the Gaussian point)."""
    card = cards()["probability-statistics/explain-map-mle"]
    text = "a Gaussian prior adds w²/(2τ²), a Laplace prior |w|/b, and that is all"
    grader = FormulaGrader.of(text, explain_table(card))
    for _ in range(3):
        assert grader.evidence(card.points[2].formulas) == "w²/(2τ²)"
        assert grader.evidence(card.points[3].formulas) == "|w|/b"
    made = [outcome.made for outcome in grade(card, text).points]
    assert made[2] and made[3]


def test_math_right_after_a_negation_is_no_evidence() -> None:
    key = "probability-statistics/explain-clt"
    assert by_formula(key, 1, "the error bar is not σ/√n, it is something else") is None
    assert by_formula(key, 1, "it isn't σ/n; the error bar is σ/√n") == "σ/√n"
    # a wrong formula after a negation does not unmake the point's words either
    assert grade(cards()[key], "for accuracy SE is not √(p(1 + p)/n)").points[3].made is False
    assert by_formula(key, 1, "not a problem, since SE = σ/√n") == "σ/√n"


def test_binomials_conditionals_and_divergences_as_typed() -> None:
    counts = tuple(
        SymbolSpec(name, domain)
        for name, domain in (("n", "positive integer"), ("c", "nonnegative integer"))
    )
    card = Card(
        "d",
        "c",
        CardKind.EXPLAIN,
        "?",
        symbols=(*counts, SymbolSpec("k", "positive integer")),
        points=(KeyPoint("s", formulas=("1 - binom(n - c, k)/binom(n, k)",)),),
    )
    assert made(card, "pass@k = 1 - C(n-c,k)/C(n,k), unbiased")
    assert made(card, "it is 1 − C(n − c, k) / C(n, k) per problem")
    assert not made(card, "it is 1 − C(n, k) / C(n − c, k) per problem")
    assert not made(card, "it is 1 − C(n − c, k) · C(n, k) per problem")
    found = candidates("ELBO = log p(x) − KL(q(z|x) ‖ p(z|x)) while ||a−b||² = 2 − 2cos θ")
    assert "log p(x) − KL(q(z, x), p(z, x))" in found.parts  # the bars inside brackets
    assert "||a−b||²" in found.parts  # a norm outside brackets stays


def test_the_hostile_suite_inside_an_explanation_is_read_safely() -> None:
    """Each answer of the engine's hostile suite (injection, power towers, deep nesting,
    Unicode bombs), alone and inside a sentence next to a right formula: grading never raises,
    and the right formula is still credited beside it."""
    import json

    card = cards()["retrieval-evaluation/l2-cosine-explain"]
    path = Path(__file__).parent / "data" / "hostile_inputs.jsonl"
    answers = [json.loads(line).get("answer") for line in path.read_text("utf-8").splitlines()]
    typed = [answer for answer in answers if isinstance(answer, str)]
    assert len(typed) > 40
    for answer in typed:
        grade(card, answer)
        text = f"so {answer} and, for unit vectors, ||a−b||² = 2 − 2cos θ."
        assert by_formula(card.key, 0, text) == "2 − 2cos θ"


def test_numbers_do_not_crowd_a_formula_out_of_a_long_explanation() -> None:
    key = "retrieval-evaluation/l2-cosine-explain"
    numbers = ", ".join(f"rank {i} is worth 1/{60 + i}" for i in range(1, 60))
    text = f"{numbers}. For unit vectors ||a−b||² = 2 − 2cos θ."
    assert len(text) < 2_000
    assert by_formula(key, 0, text) == "2 − 2cos θ"
    assert by_formula("generative-models/explain-gan-jsd", 2, f"{numbers}; at best −2 log 2")


def test_no_card_gives_a_formula_point_away_in_its_prompt() -> None:
    """Restating the question is not making a point: no built-in explain card's prompt and
    legend (the meanings shown under it) make one of its formula points (the early-stopping
    card asks about λ ~ 1/(ηt), so its point is the equation λ = 1/(ηt), not the expression the
    prompt already writes)."""
    given = []
    for card in cards().values():
        legend = [spec.meaning for spec in (*card.symbols, *card.functions)]
        grader = FormulaGrader.of(" . ".join([card.prompt, *legend]), explain_table(card))
        for index, point in enumerate(card.points):
            if point.formulas and grader.evidence(point.formulas) is not None:
                given.append((card.key, index))
    assert given == []


_PIECES = [
    *"abxyzwpqnkNDCL λσεηθβ()[]{}|‖=≈≠<>≤≥→~∝±·×−+-*/^²√_,.;: ",
    *("d_k", "p_data", "log", "exp(", "sqrt", "cos θ", "not ", "so ", "1", "0.5", "C(", "Var["),
    *("Σ_r ", "`", "$", "\\frac{1}{2}", "′", "ᵀ", "₁", "̂", " over ", " squared", "(1 − ε)"),
]


@settings(max_examples=80, deadline=None)
@given(pieces=st.lists(st.sampled_from(_PIECES), max_size=60), index=st.integers(0, 10_000))
def test_any_prose_math_is_read_within_bounds_and_never_raises(
    pieces: list[str], index: int
) -> None:
    text = "".join(pieces)
    found = candidates(text)
    assert len(found.parts) <= MAX_SPANS and len(found.equations) <= MAX_EQUATIONS
    assert len(found.numbers) <= MAX_NUMBERS
    assert all(len(part) <= MAX_SPAN_CHARS for part in found.parts)
    with_formulas = [card for card in cards().values() if any(p.formulas for p in card.points)]
    card = with_formulas[index % len(with_formulas)]
    verdict = grade(card, text + " ok")
    assert len(verdict.points) == len(card.points)


def test_the_budget_leaves_out_garbage_collection_and_the_engines_first_use() -> None:
    """The budget bounds an explanation's own comparisons: a collection of a large process
    (here a simulated one of 0.4 CPU seconds, more than the whole budget) between the grader's
    start and its comparisons does not cost the learner a formula point it states; nor does
    the engine's first use in a process (the first grader warms it before its clock starts)."""
    import time

    from recall.grading import explain_formulas

    card = cards()["attention-transformers/explain-sqrt-dk"]
    grader = FormulaGrader.of("Var[q^T k] = d_k", explain_table(card))
    explain_formulas._count_collections("start", {})
    end = time.thread_time() + 0.4
    while time.thread_time() < end:
        pass
    explain_formulas._count_collections("stop", {})
    assert time.thread_time() > grader.deadline  # the clock alone says the budget is spent
    assert grader.evidence(card.points[0].formulas) is not None
    assert explain_formulas._warmed
