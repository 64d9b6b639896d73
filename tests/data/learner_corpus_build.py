"""Build and verify ``tests/data/learner_corpus.jsonl`` without the formula engine.

Usage::

    python tests/data/learner_corpus_build.py          # rewrite the corpus file
    python tests/data/learner_corpus_build.py --check  # verify it, change nothing

The corpus is what learners really type for the built-in cards when they are right: reordered,
expanded or factored forms, Unicode as the screen shows it (σ², ᾱₜ, m̂, ½, β₁), functions without
parentheses (``ln p``), words with an article and the prompt's head noun ("a Laplace prior"),
units the prompt names ("8 bytes"), fractions on percent cards (``0.01`` for 1%), typos in long
names, numbers in every notation (``3×10⁻⁴``, ``1k``). A few entries are *intentionally
ambiguous* (``1/2r^2``): the engine must ask about them (``invalid``), never mark them wrong.

Every entry was written by hand, and this script checks it without importing ``recall``:

* **math** (formula and math cloze cards): the entry carries ``meaning``, the typed answer
  transcribed by hand into Python over :mod:`mpmath`; the card's reference answer (read from the
  deck file with :mod:`tomllib`) is turned into Python by a plain textual rewrite (``^`` to
  ``**``, ``|x|`` to ``abs(x)``). Both are evaluated at random points of the card's declared
  domains at 50 digits and must agree to 1e-35 relative;
* **fact** cards: ``meaning`` is the typed number in the card's unit, which must lie in the
  deck's range or within the card's tolerance of its value;
* **words** (reverse and word-cloze cards): ``means`` must be one of the card's accepted names,
  and the typed text, without a leading article and the ``drop`` words (the prompt's own head
  noun), must be that name up to case, hyphens and spacing, or one or two edits from it for a
  ``typo`` entry.

Each line: ``id, card, kind, form, answer, why, verified`` and ``meaning`` / ``means`` / ``drop``
/ ``ambiguous`` where they apply.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

import mpmath

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "decks"
OUT = Path(__file__).with_name("learner_corpus.jsonl")
POINTS = 12
DIGITS = 50

# ------------------------------------------------------------------------------------ entries
# (card, answer, form, meaning, why): meaning is Python over mpmath for math cards, the number
# in the card's unit for fact cards.
MATH = [
    (
        "activations/sigmoid",
        "exp(x)/(1 + exp(x))",
        "expanded",
        "exp(x)/(1+exp(x))",
        "multiply top and bottom by e^x",
    ),
    ("activations/sigmoid", "1 / (1 + exp(−x))", "unicode", "1/(1+exp(-x))", "Unicode minus"),
    (
        "activations/sigmoid-derivative",
        "σ(x) - σ(x)²",
        "expanded",
        "sig(x)-sig(x)**2",
        "multiplied out, Unicode σ and ²",
    ),
    (
        "activations/sigmoid-derivative",
        "sigma(x)(1-sigma(x))",
        "implicit",
        "sig(x)*(1-sig(x))",
        "implicit product of two calls",
    ),
    (
        "activations/tanh-derivative",
        "1 − tanh²(x)",
        "unicode",
        "1-mpmath.tanh(x)**2",
        "tanh² as on paper",
    ),
    (
        "activations/tanh-derivative",
        "(1 - tanh(x))(1 + tanh(x))",
        "factored",
        "(1-mpmath.tanh(x))*(1+mpmath.tanh(x))",
        "difference of squares",
    ),
    (
        "activations/tanh-via-sigmoid",
        "2σ(2x) − 1",
        "unicode",
        "2*sig(2*x)-1",
        "as the prompt writes σ",
    ),
    (
        "activations/relu",
        "(x + |x|)/2",
        "rewritten",
        "(x+abs(x))/2",
        "the half-sum form of max(0, x)",
    ),
    ("activations/relu", "max(x, 0)", "reordered", "max(x, 0)", "arguments swapped"),
    (
        "activations/leaky-relu",
        "max(x, α x)",
        "reordered",
        "max(x, alpha*x)",
        "arguments swapped, Unicode α",
    ),
    ("activations/gelu", "x Φ(x)", "unicode", "x*Phi(x)", "Φ for the normal CDF"),
    (
        "activations/gelu-tanh-approx",
        "0.5x(1 + tanh(√(2/π)(x + 0.044715x³)))",
        "unicode",
        "0.5*x*(1+mpmath.tanh(mpmath.sqrt(2/mpmath.pi)*(x+mpmath.mpf('0.044715')*x**3)))",
        "√, π and ³ as the prompt prints them",
    ),
    (
        "activations/swish",
        "x σ(βx)",
        "unicode",
        "x*sig(beta*x)",
        "Greek letters next to each other",
    ),
    (
        "activations/swish",
        "x/(1 + exp(-β x))",
        "expanded",
        "x/(1+exp(-beta*x))",
        "the sigmoid written out",
    ),
    (
        "activations/silu-derivative",
        "σ(x) + x σ(x)(1 − σ(x))",
        "expanded",
        "sig(x)+x*sig(x)*(1-sig(x))",
        "product rule, not factored",
    ),
    (
        "activations/softmax-three",
        "e^(z_1)/(e^(z_1) + e^(z_2) + e^(z_3))",
        "constant e",
        "exp(z_1)/(exp(z_1)+exp(z_2)+exp(z_3))",
        "e^ instead of exp",
    ),
    (
        "activations/softmax-three",
        "1/(1 + exp(z_2 − z_1) + exp(z_3 − z_1))",
        "rewritten",
        "1/(1+exp(z_2-z_1)+exp(z_3-z_1))",
        "divided through by exp(z_1)",
    ),
    (
        "activations/softmax-jacobian-diagonal",
        "p_i − p_i²",
        "expanded",
        "p_i-p_i**2",
        "multiplied out",
    ),
    (
        "activations/softmax-jacobian-offdiagonal",
        "−p_i p_j",
        "unicode",
        "-p_i*p_j",
        "Unicode minus, implicit product",
    ),
    (
        "activations/softmax-two-is-sigmoid",
        "σ(z_1 − z_2)",
        "unicode",
        "sig(z_1-z_2)",
        "σ as printed",
    ),
    (
        "activations/softmax-shift-invariance",
        "C-1 degrees of freedom",
        "unit",
        "C-1",
        "the prompt's own words after the blank",
    ),
    (
        "activations/temperature-two-logits",
        "sigma(z_1/T - z_2/T)",
        "expanded",
        "sig(z_1/T-z_2/T)",
        "the division distributed",
    ),
    (
        "activations/temperature-two-logits",
        "σ((z_1 − z_2)/T)",
        "unicode",
        "sig((z_1-z_2)/T)",
        "σ as printed",
    ),
    ("activations/swiglu-unit", "a b σ(a)", "reordered", "a*b*sig(a)", "factors in another order"),
    (
        "activations/swiglu-width-factor",
        "⅔",
        "vulgar fraction",
        "mpmath.mpf(2)/3",
        "the fraction as one glyph",
    ),
    ("activations/swiglu-width-factor", "2/3", "fraction", "mpmath.mpf(2)/3", "plain fraction"),
    (
        "alignment/bradley-terry",
        "1/(1 + exp(r_l − r_w))",
        "rewritten",
        "1/(1+exp(r_l-r_w))",
        "the sigmoid written out",
    ),
    (
        "alignment/bradley-terry",
        "exp(r_w)/(exp(r_w) + exp(r_l))",
        "rewritten",
        "exp(r_w)/(exp(r_w)+exp(r_l))",
        "as a two-way softmax",
    ),
    (
        "alignment/reward-model-loss",
        "softplus(r_l - r_w)",
        "rewritten",
        "log(1+exp(r_l-r_w))",
        "-log σ(t) = softplus(-t)",
    ),
    (
        "alignment/reward-model-loss",
        "log(1 + exp(-(r_w - r_l)))",
        "expanded",
        "log(1+exp(-(r_w-r_l)))",
        "softplus written out",
    ),
    (
        "alignment/rlhf-objective",
        "r − β log(π_θ/π_ref)",
        "unicode",
        "r-beta*log(pi_theta/pi_ref)",
        "Greek names with Greek subscripts",
    ),
    (
        "alignment/rlhf-objective",
        "r - beta*(log(pi_theta) - log(pi_ref))",
        "expanded",
        "r-beta*(log(pi_theta)-log(pi_ref))",
        "log of a quotient split",
    ),
    (
        "alignment/optimal-policy",
        "π_ref exp(r/β)/Z",
        "unicode",
        "pi_ref*exp(r/beta)/Z",
        "Unicode names",
    ),
    (
        "alignment/optimal-policy",
        "pi_ref*e^(r/beta)/Z",
        "constant e",
        "pi_ref*exp(r/beta)/Z",
        "e^ instead of exp",
    ),
    (
        "alignment/implied-reward",
        "β log(π_star Z/π_ref)",
        "combined",
        "beta*log(pi_star*Z/pi_ref)",
        "the two logs joined (all positive)",
    ),
    (
        "alignment/dpo-loss",
        "softplus(β log(pi_l/ref_l) − β log(pi_w/ref_w))",
        "rewritten",
        "log(1+exp(beta*log(pi_l/ref_l)-beta*log(pi_w/ref_w)))",
        "-log σ(t) = softplus(-t)",
    ),
    (
        "alignment/ppo-ratio",
        "exp(log(pi_theta) - log(pi_old))",
        "rewritten",
        "exp(log(pi_theta)-log(pi_old))",
        "ratio as exp of a log difference",
    ),
    (
        "alignment/ppo-clip",
        "min(ρA, max(1−ε, min(ρ, 1+ε))A)",
        "unicode",
        "min(rho*A, max(1-epsilon, min(rho, 1+epsilon))*A)",
        "Greek letters as printed",
    ),
    (
        "alignment/ppo-clip-positive",
        "A min(ρ, 1 + ε)",
        "reordered",
        "A*min(rho, 1+epsilon)",
        "A first",
    ),
    (
        "alignment/ppo-clip-negative",
        "A·max(ρ, 1 − ε)",
        "unicode",
        "A*max(rho, 1-epsilon)",
        "middle dot",
    ),
    (
        "alignment/grpo-advantage",
        "(r_i − r̄)/s_r",
        "unicode",
        "(r_i-r_bar)/s_r",
        "r̄ typed with a combining bar",
    ),
    ("alignment/moe-aux-loss", "λ E f_i P_i", "unicode", "lambda_*E*f_i*P_i", "λ as printed"),
    ("alignment/lora-scale", "α/r", "unicode", "alpha/r", "α as printed"),
    ("alignment/moe-aux-uniform", "λ", "unicode", "lambda_", "λ as printed"),
    (
        "attention-transformers/sdpa-logit",
        "M + s/√dₖ",
        "unicode",
        "M+s/mpmath.sqrt(d_k)",
        "subscript k as rendered",
    ),
    (
        "attention-transformers/sqrt-dk-logit-growth",
        "d_k^(1/2)",
        "power",
        "mpmath.sqrt(d_k)",
        "root as a power",
    ),
    (
        "attention-transformers/sqrt-dk-logit-growth",
        "√d_k",
        "unicode",
        "mpmath.sqrt(d_k)",
        "radical sign",
    ),
    ("attention-transformers/mha-head-width", "d/H", "plain", "d/H", "as written"),
    (
        "attention-transformers/complexity-scores-time",
        "d n²",
        "reordered",
        "d*n**2",
        "factors swapped",
    ),
    (
        "attention-transformers/complexity-projections",
        "n d^2",
        "spaced",
        "n*d**2",
        "implicit product",
    ),
    ("attention-transformers/gqa-cache-shrink", "h/g", "plain", "h/g", "as written"),
    ("attention-transformers/rope-angle", "θ_i m", "reordered", "theta_i*m", "factors swapped, θ"),
    (
        "attention-transformers/rope-relative",
        "-(m - n)",
        "rewritten",
        "-(m-n)",
        "minus of the other difference",
    ),
    (
        "attention-transformers/alibi-bias",
        "s − m_h |i − j|",
        "unicode",
        "s-m_h*abs(i-j)",
        "bars for abs",
    ),
    (
        "attention-transformers/alibi-bias",
        "s - m_h*|j - i|",
        "reordered",
        "s-m_h*abs(j-i)",
        "difference the other way inside abs",
    ),
    (
        "attention-transformers/alibi-slope",
        "1/2^(8h/H)",
        "rewritten",
        "1/mpmath.power(2, 8*h/H)",
        "negative exponent as a reciprocal",
    ),
    (
        "attention-transformers/alibi-slope",
        "(2^(-8/H))^h",
        "rewritten",
        "mpmath.power(mpmath.power(2, -8/H), h)",
        "power of a power",
    ),
    (
        "diffusion-flow/forward-step-mean",
        "√(1 − β_t) x_prev",
        "unicode",
        "mpmath.sqrt(1-beta_t)*x_prev",
        "radical sign",
    ),
    ("diffusion-flow/alpha-t", "1 - β_t", "unicode", "1-beta_t", "β as printed"),
    (
        "diffusion-flow/closed-form",
        "√ᾱ_t x_0 + √(1−ᾱ_t) ε",
        "unicode",
        "mpmath.sqrt(alpha_bar_t)*x_0+mpmath.sqrt(1-alpha_bar_t)*epsilon",
        "ᾱ typed as the legend shows it",
    ),
    (
        "diffusion-flow/closed-form",
        "ε √(1 − ᾱₜ) + x₀ √ᾱₜ",
        "unicode reordered",
        "epsilon*mpmath.sqrt(1-alpha_bar_t)+x_0*mpmath.sqrt(alpha_bar_t)",
        "subscripts as rendered, terms swapped",
    ),
    (
        "diffusion-flow/closed-form-x0",
        "(x_t − √(1−ᾱ_t) ε)/√ᾱ_t",
        "unicode",
        "(x_t-mpmath.sqrt(1-alpha_bar_t)*epsilon)/mpmath.sqrt(alpha_bar_t)",
        "ᾱ and √",
    ),
    (
        "diffusion-flow/closed-form-x0",
        "x_t/√ᾱ_t − √((1−ᾱ_t)/ᾱ_t) ε",
        "expanded",
        "x_t/mpmath.sqrt(alpha_bar_t)-mpmath.sqrt((1-alpha_bar_t)/alpha_bar_t)*epsilon",
        "split into two terms (0 < ᾱ < 1)",
    ),
    (
        "diffusion-flow/posterior-mean",
        "(x_t − β_t ε/√(1−ᾱ_t))/√α_t",
        "unicode",
        "(x_t-beta_t*epsilon/mpmath.sqrt(1-alpha_bar_t))/mpmath.sqrt(alpha_t)",
        "as printed",
    ),
    (
        "diffusion-flow/posterior-mean",
        "x_t/√α_t − β_t ε/(√α_t √(1 − ᾱ_t))",
        "expanded",
        "x_t/mpmath.sqrt(alpha_t)-beta_t*epsilon/(mpmath.sqrt(alpha_t)*mpmath.sqrt(1-alpha_bar_t))",
        "the division distributed",
    ),
    (
        "diffusion-flow/posterior-variance",
        "β_t (1 − ᾱ_prev)/(1 − ᾱ_t)",
        "unicode",
        "beta_t*(1-alpha_bar_prev)/(1-alpha_bar_t)",
        "β first",
    ),
    (
        "diffusion-flow/cosine-schedule-f",
        "cos²(π/2 · (t/T + s)/(1 + s))",
        "unicode",
        "mpmath.cos(mpmath.pi/2*(t/T+s)/(1+s))**2",
        "cos² as on paper",
    ),
    (
        "diffusion-flow/v-prediction",
        "√ᾱ_t ε − √(1 − ᾱ_t) x_0",
        "unicode",
        "mpmath.sqrt(alpha_bar_t)*epsilon-mpmath.sqrt(1-alpha_bar_t)*x_0",
        "ᾱ",
    ),
    (
        "diffusion-flow/v-prediction-x0",
        "√ᾱ_t x_t − √(1−ᾱ_t) v",
        "unicode",
        "mpmath.sqrt(alpha_bar_t)*x_t-mpmath.sqrt(1-alpha_bar_t)*v",
        "ᾱ",
    ),
    (
        "diffusion-flow/score-from-noise",
        "−eps_theta/√(1 − ᾱ_t)",
        "unicode",
        "-eps_theta/mpmath.sqrt(1-alpha_bar_t)",
        "ᾱ",
    ),
    ("diffusion-flow/reverse-sde-drift", "f − g² s", "unicode", "f-g**2*s", "superscript ²"),
    ("diffusion-flow/pf-ode", "f - ½g²s", "vulgar fraction", "f-g**2*s/2", "½ as printed"),
    (
        "diffusion-flow/dsm-target",
        "-(x̃ − x)/σ²",
        "unicode",
        "-(x_tilde-x)/sigma**2",
        "x̃ typed with a combining tilde",
    ),
    (
        "diffusion-flow/cfg",
        "(1 − w) eps_u + w eps_c",
        "rewritten",
        "(1-w)*eps_u+w*eps_c",
        "as an interpolation",
    ),
    ("diffusion-flow/classifier-guidance", "s_cx + s_x", "reordered", "s_cx+s_x", "terms swapped"),
    (
        "diffusion-flow/flow-matching-path",
        "x_0 + t(x_1 − x_0)",
        "rewritten",
        "x_0+t*(x_1-x_0)",
        "start plus a fraction of the way",
    ),
    (
        "diffusion-flow/flow-matching-target",
        "−(x_0 − x_1)",
        "rewritten",
        "-(x_0-x_1)",
        "minus the other difference",
    ),
    (
        "diffusion-flow/karras-schedule",
        "(σ_max^(1/ρ) + i/(N−1) (σ_min^(1/ρ) − σ_max^(1/ρ)))^ρ",
        "unicode",
        "(sigma_max**(1/rho)+i/(N-1)*(sigma_min**(1/rho)-sigma_max**(1/rho)))**rho",
        "Greek names, bracketed divisor then a product",
    ),
    (
        "gaussians/density-1d",
        "1/√(2πσ²) exp(−(x−μ)²/(2σ²))",
        "unicode",
        "exp(-(x-mu)**2/(2*sigma**2))/mpmath.sqrt(2*mpmath.pi*sigma**2)",
        "as on the sheet",
    ),
    (
        "gaussians/density-1d",
        "exp(-(x-mu)^2/(2 sigma^2))/(sigma sqrt(2 pi))",
        "rewritten",
        "exp(-(x-mu)**2/(2*sigma**2))/(sigma*mpmath.sqrt(2*mpmath.pi))",
        "σ taken out of the root (σ > 0)",
    ),
    (
        "gaussians/density-1d",
        "(2π σ²)^(-1/2) e^(-(x-μ)²/(2σ²))",
        "power",
        "(2*mpmath.pi*sigma**2)**(-mpmath.mpf(1)/2)*exp(-(x-mu)**2/(2*sigma**2))",
        "normaliser as a power, e^",
    ),
    (
        "gaussians/density-normalizer",
        "1/((2π)^(d/2) √det_Sigma)",
        "rewritten",
        "1/((2*mpmath.pi)**(d/mpmath.mpf(2))*mpmath.sqrt(det_Sigma))",
        "negative powers as a reciprocal",
    ),
    (
        "gaussians/entropy-1d",
        "½ log(2πeσ²)",
        "unicode",
        "log(2*mpmath.pi*mpmath.e*sigma**2)/2",
        "½, π, e, σ²",
    ),
    (
        "gaussians/entropy-1d",
        "log(σ √(2πe))",
        "rewritten",
        "log(sigma*mpmath.sqrt(2*mpmath.pi*mpmath.e))",
        "the half moved inside (σ > 0)",
    ),
    (
        "gaussians/entropy-1d",
        "1/2 + ½ ln(2πσ²)",
        "expanded",
        "mpmath.mpf(1)/2+log(2*mpmath.pi*sigma**2)/2",
        "log e split off",
    ),
    (
        "gaussians/entropy-d-dim",
        "(d/2) log(2πe) + ½ log(det_Sigma)",
        "unicode",
        "d/mpmath.mpf(2)*log(2*mpmath.pi*mpmath.e)+log(det_Sigma)/2",
        "bracketed d/2",
    ),
    (
        "gaussians/kl-to-standard-normal",
        "½(μ² + σ² − 2 log(σ) − 1)",
        "rewritten",
        "(mu**2+sigma**2-2*log(sigma)-1)/2",
        "log σ² as 2 log σ (σ > 0)",
    ),
    (
        "gaussians/kl-to-standard-normal",
        "(mu^2 + sigma^2 - 1)/2 - log(sigma)",
        "expanded",
        "(mu**2+sigma**2-1)/2-log(sigma)",
        "log term split off",
    ),
    (
        "gaussians/kl-to-standard-normal-logvar",
        "½(μ² + e^s − s − 1)",
        "unicode",
        "(mu**2+exp(s)-s-1)/2",
        "e^s for exp(s)",
    ),
    (
        "gaussians/kl-general-1d",
        "log(σ_2/σ_1) + (σ_1² + (μ_1 − μ_2)²)/(2σ_2²) − ½",
        "unicode",
        "log(sigma_2/sigma_1)+(sigma_1**2+(mu_1-mu_2)**2)/(2*sigma_2**2)-mpmath.mpf(1)/2",
        "as on the sheet",
    ),
    (
        "gaussians/kl-general-1d",
        "ln σ_2 − ln σ_1 + (σ_1^2 + (μ_2 − μ_1)^2)/(2 σ_2^2) − 1/2",
        "bare calls",
        "log(sigma_2)-log(sigma_1)+(sigma_1**2+(mu_2-mu_1)**2)/(2*sigma_2**2)-mpmath.mpf(1)/2",
        "ln without parentheses, log split",
    ),
    ("gaussians/sum-mean", "μ_2 + μ_1", "reordered", "mu_2+mu_1", "terms swapped"),
    (
        "gaussians/sum-variance",
        "σ₁² + σ₂²",
        "unicode",
        "sigma_1**2+sigma_2**2",
        "subscripts and superscripts as rendered",
    ),
    (
        "gaussians/sum-std",
        "√(σ₁² + σ₂²)",
        "unicode",
        "mpmath.sqrt(sigma_1**2+sigma_2**2)",
        "radical with rendered sub/superscripts",
    ),
    (
        "gaussians/reparameterization",
        "σε + μ",
        "unicode",
        "sigma*epsilon+mu",
        "two Greek letters side by side",
    ),
    (
        "gaussians/reparameterization-logvar",
        "μ + e^(s/2) ε",
        "unicode",
        "mu+exp(s/2)*epsilon",
        "e^(s/2)",
    ),
    (
        "gaussians/reparameterization-logvar",
        "mu + sqrt(exp(s))*epsilon",
        "rewritten",
        "mu+mpmath.sqrt(exp(s))*epsilon",
        "exp(s/2) as a root",
    ),
    ("gaussians/thin-shell-norm", "d^(1/2)", "power", "mpmath.sqrt(d)", "root as a power"),
    ("gaussians/random-cosine-std", "1/√d", "unicode", "1/mpmath.sqrt(d)", "radical sign"),
    ("gaussians/random-cosine-std", "d^(-1/2)", "power", "1/mpmath.sqrt(d)", "negative power"),
    (
        "generative-models/ar-loss-summand",
        "log(1/p_i)",
        "rewritten",
        "log(1/p_i)",
        "log of the reciprocal",
    ),
    (
        "generative-models/ar-loss-summand",
        "−ln p_i",
        "bare call",
        "-log(p_i)",
        "ln without parentheses",
    ),
    ("generative-models/elbo-terms", "−D + R", "reordered", "-D+R", "terms swapped"),
    (
        "generative-models/gan-value-sample",
        "log(d_r (1 − d_f))",
        "combined",
        "log(d_r*(1-d_f))",
        "the logs joined (both positive)",
    ),
    (
        "generative-models/gan-optimal-discriminator",
        "1/(1 + p_g/p_data)",
        "rewritten",
        "1/(1+p_g/p_data)",
        "divided through by p_data",
    ),
    (
        "generative-models/gan-equilibrium-discriminator",
        "½",
        "vulgar fraction",
        "mpmath.mpf(1)/2",
        "one glyph",
    ),
    (
        "generative-models/gan-equilibrium-discriminator",
        "0.5",
        "decimal",
        "mpmath.mpf(1)/2",
        "decimal",
    ),
    (
        "generative-models/gan-jsd",
        "2(J − log 2)",
        "factored",
        "2*(J-log(2))",
        "2 taken out, log 2 without parentheses",
    ),
    ("generative-models/gan-jsd", "2J − ln 4", "rewritten", "2*J-log(4)", "2 log 2 = log 4"),
    (
        "generative-models/wgan-critic-sample",
        "-(D(G(z)) - D(x))",
        "rewritten",
        "-(Dfun(Gfun(z))-Dfun(x))",
        "minus the reversed difference",
    ),
    (
        "generative-models/flow-change-of-variables",
        "ell + ln(|J|)",
        "unicode",
        "ell+log(abs(J))",
        "ln and bars",
    ),
    (
        "generative-models/flow-affine-1d",
        "−(x − b)²/(2a²) − log(2π)/2 − log(abs(a))",
        "expanded",
        "-(x-b)**2/(2*a**2)-log(2*mpmath.pi)/2-log(abs(a))",
        "the square of the quotient expanded",
    ),
    (
        "generative-models/coupling-forward",
        "t + h e^s",
        "reordered",
        "t+h*exp(s)",
        "e^s, terms swapped",
    ),
    ("generative-models/coupling-forward", "h·exp(s) + t", "unicode", "h*exp(s)+t", "middle dot"),
    (
        "generative-models/coupling-inverse",
        "(y − t)/exp(s)",
        "rewritten",
        "(y-t)/exp(s)",
        "division instead of exp(-s)",
    ),
    (
        "generative-models/coupling-inverse",
        "y e^(−s) − t e^(−s)",
        "expanded",
        "y*exp(-s)-t*exp(-s)",
        "multiplied out",
    ),
    ("generative-models/ebm-density", "e^(−E)/Z", "unicode", "exp(-E)/Z", "e^"),
    ("generative-models/ebm-density", "1/(Z exp(E))", "rewritten", "1/(Z*exp(E))", "reciprocal"),
    (
        "generative-models/ebm-gradient-gaussian",
        "x²/2 − 1/(2θ)",
        "unicode",
        "x**2/2-1/(2*theta)",
        "θ and ²",
    ),
    (
        "generative-models/ebm-gradient-gaussian",
        "(θx² − 1)/(2θ)",
        "combined",
        "(theta*x**2-1)/(2*theta)",
        "over a common denominator",
    ),
    (
        "generative-models/score-gaussian",
        "(μ − x)/σ²",
        "rewritten",
        "(mu-x)/sigma**2",
        "the minus absorbed",
    ),
    (
        "generative-models/langevin-step",
        "x + (η/2) s + √η z",
        "unicode",
        "x+eta/2*s+mpmath.sqrt(eta)*z",
        "bracketed η/2, √η",
    ),
    (
        "gradients/linreg-grad-coordinate",
        "x_j (ŷ − y)",
        "unicode",
        "x_j*(y_hat-y)",
        "ŷ typed as printed",
    ),
    ("gradients/linreg-grad-constant", "2/n", "plain", "mpmath.mpf(2)/n", "as written"),
    (
        "gradients/logreg-grad-coordinate",
        "x_j(σ(z) − y)",
        "unicode",
        "x_j*(sig(z)-y)",
        "a variable before a bracket multiplies",
    ),
    ("gradients/logreg-same-form", "ŷ − y", "unicode", "y_hat-y", "ŷ"),
    (
        "gradients/logreg-same-form",
        "-(y - y_hat)",
        "rewritten",
        "-(y-y_hat)",
        "minus the reversed residual",
    ),
    (
        "gradients/softmax-ce-grad",
        "−(y_i − p_i)",
        "rewritten",
        "-(y_i-p_i)",
        "minus the reversed difference",
    ),
    (
        "gradients/bernoulli-log-partition",
        "e^θ/(1 + e^θ)",
        "rewritten",
        "exp(theta)/(1+exp(theta))",
        "the sigmoid written out",
    ),
    (
        "gradients/bernoulli-log-partition",
        "1/(1+exp(−θ))",
        "rewritten",
        "1/(1+exp(-theta))",
        "the sigmoid written out",
    ),
    (
        "gradients/mse-on-sigmoid-grad",
        "x σ(z)(1−σ(z))(σ(z) − y)",
        "reordered",
        "x*sig(z)*(1-sig(z))*(sig(z)-y)",
        "factors in another order",
    ),
    ("gradients/normal-equation-1d", "S_xy/S_xx", "plain", "S_xy/S_xx", "as written"),
    ("gradients/ridge-1d", "S_xy/(λ + S_xx)", "reordered", "S_xy/(lambda_+S_xx)", "λ first"),
    ("gradients/normal-equation-cost", "d³", "unicode", "d**3", "superscript ³"),
    ("inference-cost/param-count", "d(12 L d + V)", "factored", "d*(12*L*d+V)", "d taken out"),
    (
        "inference-cost/param-count",
        "12 L d² + V d",
        "unicode",
        "12*L*d**2+V*d",
        "spaces for products",
    ),
    (
        "inference-cost/param-attn-per-layer",
        "4 d^2 parameters",
        "unit",
        "4*d**2",
        "the prompt's unit after the blank",
    ),
    (
        "inference-cost/param-mlp-per-layer",
        "2·4d·d",
        "expanded",
        "8*d**2",
        "two matrices of 4d × d",
    ),
    ("inference-cost/param-untied", "d V", "reordered", "d*V", "factors swapped"),
    ("inference-cost/training-flops", "6·N·D", "unicode", "6*N*D", "middle dots"),
    ("inference-cost/training-flops-per-token", "6N FLOPs", "unit", "6*N", "the prompt's unit"),
    ("inference-cost/forward-flops", "2N", "implicit", "2*N", "number before a name"),
    (
        "inference-cost/backward-flops",
        "4N FLOPs per token",
        "unit",
        "4*N",
        "the prompt's words after the blank",
    ),
    ("inference-cost/per-layer-flops", "4d(6d + T)", "factored", "4*d*(6*d+T)", "4d taken out"),
    (
        "inference-cost/attention-training-flops",
        "6N + 12 L d n",
        "spaced",
        "6*N+12*L*d*n",
        "spaces for products",
    ),
    (
        "inference-cost/attention-share-identity",
        "1/(1 + 6d/n)",
        "rewritten",
        "1/(1+6*d/n)",
        "divided through by n",
    ),
    (
        "inference-cost/training-memory",
        "(2 + 2 + 4 + 4 + 4) N",
        "expanded",
        "16*N",
        "the five buffers added up",
    ),
    (
        "inference-cost/training-memory-adam-states",
        "8 bytes",
        "unit",
        "mpmath.mpf(8)",
        "the issue's example: the prompt says bytes",
    ),
    (
        "inference-cost/training-memory-adam-states",
        "4 + 4",
        "expanded",
        "mpmath.mpf(8)",
        "two fp32 buffers",
    ),
    (
        "inference-cost/training-memory-master",
        "4 bytes per parameter",
        "unit",
        "mpmath.mpf(4)",
        "the prompt's words after the blank",
    ),
    (
        "inference-cost/kv-cache",
        "2·L·H_kv·d_h·T·B·b",
        "unicode",
        "2*L*H_kv*d_h*T*B*b",
        "middle dots as the prompt writes them",
    ),
    ("inference-cost/serving-weights-bits", "q N/8", "reordered", "q*N/8", "q first"),
    ("inference-cost/serving-int4", "0.5N", "decimal", "N/2", "half as a decimal"),
    ("inference-cost/serving-fp16", "2N bytes", "unit", "2*N", "the prompt's unit"),
    (
        "information-theory/entropy-summand",
        "−p ln p",
        "bare call",
        "-p*log(p)",
        "ln p without parentheses",
    ),
    (
        "information-theory/entropy-summand",
        "p log(1/p)",
        "rewritten",
        "p*log(1/p)",
        "log of the reciprocal",
    ),
    (
        "information-theory/entropy-max-uniform",
        "ln C",
        "bare call",
        "log(C)",
        "ln C without parentheses",
    ),
    (
        "information-theory/cross-entropy-summand",
        "−p log q",
        "bare call",
        "-p*log(q)",
        "log q without parentheses",
    ),
    (
        "information-theory/cross-entropy-summand",
        "p·log(1/q)",
        "rewritten",
        "p*log(1/q)",
        "log of the reciprocal",
    ),
    (
        "information-theory/kl-summand",
        "p (log p − log q)",
        "expanded",
        "p*(log(p)-log(q))",
        "log of a quotient split, bare calls",
    ),
    (
        "information-theory/kl-summand",
        "−p log(q/p)",
        "rewritten",
        "-p*log(q/p)",
        "minus the log of the inverse",
    ),
    (
        "information-theory/kl-as-ce-minus-entropy",
        "−H_p + H_pq",
        "reordered",
        "-H_p+H_pq",
        "terms swapped",
    ),
    (
        "information-theory/ce-equals-entropy-plus-kl",
        "D_KL + H_p",
        "reordered",
        "D_KL+H_p",
        "terms swapped",
    ),
    (
        "information-theory/js-mixture",
        "½(p + q)",
        "vulgar fraction",
        "(p+q)/2",
        "½ before a bracket",
    ),
    ("information-theory/js-mixture", "p/2 + q/2", "expanded", "p/2+q/2", "split"),
    (
        "information-theory/js-summand",
        "½ p log(2p/(p+q)) + ½ q log(2q/(p+q))",
        "unicode",
        "p/2*log(2*p/(p+q))+q/2*log(2*q/(p+q))",
        "½ as printed",
    ),
    (
        "information-theory/mi-summand",
        "p_xy (log p_xy − log(p_x p_y))",
        "expanded",
        "p_xy*(log(p_xy)-log(p_x*p_y))",
        "log of a quotient split",
    ),
    ("information-theory/perplexity-from-ce", "e^L", "constant e", "exp(L)", "e^"),
    ("information-theory/perplexity-from-bits", "2^b", "plain", "mpmath.power(2, b)", "as written"),
    (
        "information-theory/bpc-formula",
        "L_total/(n_chars ln 2)",
        "bare call",
        "L_total/(n_chars*log(2))",
        "ln 2 without parentheses",
    ),
    (
        "information-theory/bpc-formula",
        "L_total log2(e)/n_chars",
        "rewritten",
        "L_total*mpmath.log(mpmath.e, 2)/n_chars",
        "1/ln 2 = log₂ e",
    ),
    (
        "information-theory/expected-loglik-decomposition",
        "−(H_data + D_KL)",
        "factored",
        "-(H_data+D_KL)",
        "minus taken out",
    ),
    ("losses/mse-summand", "(y − ŷ)²", "unicode", "(y-y_hat)**2", "difference the other way, ŷ"),
    (
        "losses/mse-summand",
        "y_hat^2 - 2 y y_hat + y^2",
        "expanded",
        "y_hat**2-2*y*y_hat+y**2",
        "square multiplied out",
    ),
    ("losses/mse-gaussian-nll", "(ŷ − y)²/(2σ²)", "unicode", "(y_hat-y)**2/(2*sigma**2)", "ŷ, σ²"),
    ("losses/mae-summand", "|y − ŷ|", "unicode", "abs(y-y_hat)", "bars, difference the other way"),
    (
        "losses/huber-inner",
        "½r²",
        "vulgar fraction",
        "r**2/2",
        "the issue's example, as the Huber card prints ½",
    ),
    ("losses/huber-inner", "r·r/2", "rewritten", "r*r/2", "square as a product"),
    ("losses/huber-outer", "δ|r| − ½δ²", "unicode", "delta*abs(r)-delta**2/2", "multiplied out, ½"),
    (
        "losses/huber-outer",
        "delta*abs(r) - delta^2/2",
        "expanded",
        "delta*abs(r)-delta**2/2",
        "multiplied out",
    ),
    ("losses/huber-join", "½δ²", "vulgar fraction", "delta**2/2", "½ and ²"),
    (
        "losses/bce-summand",
        "−y log p − (1 − y) log(1 − p)",
        "bare call",
        "-y*log(p)-(1-y)*log(1-p)",
        "minus distributed, log p",
    ),
    (
        "losses/bce-summand",
        "-(y ln(p) + (1-y) ln(1-p))",
        "plain",
        "-(y*log(p)+(1-y)*log(1-p))",
        "ln",
    ),
    (
        "losses/bce-from-logit",
        "softplus(z) − z y",
        "reordered",
        "log(1+exp(z))-z*y",
        "factors swapped",
    ),
    (
        "losses/cce-summand",
        "−y_c ln p_c",
        "bare call",
        "-y_c*log(p_c)",
        "ln p_c without parentheses",
    ),
    ("losses/cce-one-hot", "log(1/p_true)", "rewritten", "log(1/p_true)", "log of the reciprocal"),
    (
        "losses/contrastive",
        "y d² + (1−y) max(m − d, 0)²",
        "unicode",
        "y*d**2+(1-y)*max(m-d, 0)**2",
        "max arguments swapped, ² after a call",
    ),
    (
        "losses/triplet",
        "max(d_ap − d_an + m, 0)",
        "reordered",
        "max(d_ap-d_an+m, 0)",
        "max arguments swapped",
    ),
    (
        "losses/infonce",
        "log S − s_pos/τ",
        "rewritten",
        "log(S)-s_pos/tau",
        "log of the quotient split, τ",
    ),
    (
        "losses/infonce-one-negative",
        "s_neg/τ − s_pos/τ",
        "expanded",
        "s_neg/tau-s_pos/tau",
        "split",
    ),
    ("losses/infonce-mi-bound", "ln N", "bare call", "log(N)", "ln N"),
    ("metrics/precision", "TP/(FP + TP)", "reordered", "TP/(FP+TP)", "terms swapped"),
    ("metrics/recall", "1/(1 + FN/TP)", "rewritten", "1/(1+FN/TP)", "divided through by TP"),
    ("metrics/fpr", "FP/(TN + FP)", "reordered", "FP/(TN+FP)", "terms swapped"),
    (
        "metrics/accuracy",
        "(TN + TP)/(FN + FP + TN + TP)",
        "reordered",
        "(TN+TP)/(FN+FP+TN+TP)",
        "terms in another order",
    ),
    ("metrics/f1", "2/(1/P + 1/R)", "rewritten", "2/(1/P+1/R)", "harmonic mean form"),
    ("metrics/f1", "2 P R/(P + R)", "spaced", "2*P*R/(P+R)", "spaces for products"),
    (
        "metrics/f1-counts",
        "TP/(TP + (FP + FN)/2)",
        "rewritten",
        "TP/(TP+(FP+FN)/2)",
        "divided through by 2",
    ),
    ("metrics/f-beta", "(1 + β²) P R/(β² P + R)", "unicode", "(1+beta**2)*P*R/(beta**2*P+R)", "β²"),
    (
        "metrics/average-precision",
        "P_n (R_n − R_prev)",
        "reordered",
        "P_n*(R_n-R_prev)",
        "factors swapped",
    ),
    ("metrics/brier", "(y_i − p_i)²", "rewritten", "(y_i-p_i)**2", "difference the other way"),
    (
        "metrics/ece",
        "|acc_m − conf_m| n_m/N",
        "reordered",
        "abs(acc_m-conf_m)*n_m/N",
        "factors in another order",
    ),
    (
        "metrics/r-squared",
        "(SS_tot − SS_res)/SS_tot",
        "combined",
        "(SS_tot-SS_res)/SS_tot",
        "over one denominator",
    ),
    (
        "metrics/dcg-linear-gain",
        "rel_i/log2(1 + i)",
        "reordered",
        "rel_i/mpmath.log(1+i, 2)",
        "terms swapped inside",
    ),
    (
        "metrics/dcg-linear-gain",
        "rel_i·log(2)/log(i + 1)",
        "rewritten",
        "rel_i*log(2)/log(i+1)",
        "change of base",
    ),
    (
        "metrics/dcg-exp-gain",
        "(2^rel_i − 1)/log2(i + 1)",
        "unicode",
        "(mpmath.power(2, rel_i)-1)/mpmath.log(i+1, 2)",
        "Unicode minus",
    ),
    ("metrics/mrr", "rank_q⁻¹", "unicode", "1/rank_q", "superscript −1"),
    (
        "normalization/norm-core",
        "γ(x − μ)/√(σ² + ε) + β",
        "unicode",
        "gamma*(x-mu)/mpmath.sqrt(sigma**2+epsilon)+beta",
        "as on the sheet",
    ),
    (
        "normalization/norm-core",
        "β + γ·(x − μ)/sqrt(σ^2 + ε)",
        "reordered",
        "beta+gamma*(x-mu)/mpmath.sqrt(sigma**2+epsilon)",
        "shift first",
    ),
    (
        "normalization/layernorm",
        "γ_i (x_i − μ)/√(σ² + ε) + β_i",
        "unicode",
        "gamma_i*(x_i-mu)/mpmath.sqrt(sigma**2+epsilon)+beta_i",
        "Greek with subscripts",
    ),
    (
        "normalization/rmsnorm",
        "γ_i x_i/√(ms + ε)",
        "unicode",
        "gamma_i*x_i/mpmath.sqrt(ms+epsilon)",
        "√ and ε",
    ),
    (
        "normalization/pre-norm-block",
        "F(Norm(x)) + x",
        "reordered",
        "Ffun(Normfun(x))+x",
        "terms swapped",
    ),
    ("optimizers/sgd-update", "w − ηg", "unicode", "w-eta*g", "η next to g"),
    ("optimizers/momentum-velocity", "g + βv", "reordered", "g+beta*v", "terms swapped"),
    (
        "optimizers/momentum-weight",
        "w − ηβv − ηg",
        "expanded",
        "w-eta*beta*v-eta*g",
        "η distributed",
    ),
    ("optimizers/momentum-effective-step", "η/(1 − β)", "unicode", "eta/(1-beta)", "Greek"),
    (
        "optimizers/nesterov-lookahead",
        "w − β η v",
        "reordered",
        "w-beta*eta*v",
        "factors in another order",
    ),
    ("optimizers/adagrad-accumulator", "G + g²", "unicode", "G+g**2", "superscript ²"),
    (
        "optimizers/adagrad-update",
        "w − η g/(√G + ε)",
        "unicode",
        "w-eta*g/(mpmath.sqrt(G)+epsilon)",
        "√G",
    ),
    ("optimizers/rmsprop-v", "βv + (1 − β)g²", "unicode", "beta*v+(1-beta)*g**2", "Greek and ²"),
    (
        "optimizers/rmsprop-update",
        "w − ηg/(√v + ε)",
        "unicode",
        "w-eta*g/(mpmath.sqrt(v)+epsilon)",
        "√v",
    ),
    (
        "optimizers/adam-m",
        "β₁ m_prev + (1 − β₁) g_t",
        "unicode",
        "beta_1*m_prev+(1-beta_1)*g_t",
        "β₁ as rendered",
    ),
    (
        "optimizers/adam-v",
        "β₂ v_prev + (1 − β₂) g_t²",
        "unicode",
        "beta_2*v_prev+(1-beta_2)*g_t**2",
        "β₂ and ²",
    ),
    ("optimizers/adam-m-hat", "m_t/(1 − β₁^t)", "unicode", "m_t/(1-beta_1**t)", "β₁ with a power"),
    ("optimizers/adam-v-hat", "v_t/(1 − β_2^t)", "unicode", "v_t/(1-beta_2**t)", "Unicode minus"),
    (
        "optimizers/adam-update",
        "w − η m̂_t/(√v̂_t + ε)",
        "unicode",
        "w-eta*m_hat_t/(mpmath.sqrt(v_hat_t)+epsilon)",
        "hats typed as combining marks",
    ),
    (
        "optimizers/adamw-update",
        "w − η m̂_t/(√v̂_t + ε) − ηλw",
        "expanded",
        "w-eta*m_hat_t/(mpmath.sqrt(v_hat_t)+epsilon)-eta*lambda_*w",
        "η distributed over the decay term",
    ),
    (
        "optimizers/adamw-update",
        "w(1 − ηλ) − η m_hat_t/(sqrt(v_hat_t) + epsilon)",
        "factored",
        "w*(1-eta*lambda_)-eta*m_hat_t/(mpmath.sqrt(v_hat_t)+epsilon)",
        "decay as a shrink factor",
    ),
    ("optimizers/ema-timescale", "1/(1-β)", "unicode", "1/(1-beta)", "β"),
    (
        "optimizers/cosine-schedule",
        "η_min + ½(η_max − η_min)(1 + cos(πτ))",
        "unicode",
        "eta_min+(eta_max-eta_min)*(1+mpmath.cos(mpmath.pi*tau))/2",
        "as on the sheet",
    ),
    (
        "optimizers/cosine-schedule",
        "eta_max - (eta_max - eta_min)*(1 - cos(pi*tau))/2",
        "rewritten",
        "eta_max-(eta_max-eta_min)*(1-mpmath.cos(mpmath.pi*tau))/2",
        "counted down from the peak",
    ),
    (
        "optimizers/grad-clip-factor",
        "min(c/g_norm, 1)",
        "reordered",
        "min(c/g_norm, 1)",
        "arguments swapped",
    ),
    ("optimizers/he-init", "2/n_in", "plain", "mpmath.mpf(2)/n_in", "as written"),
    (
        "optimizers/residual-proj-scale",
        "(2L)^(-1/2)",
        "power",
        "1/mpmath.sqrt(2*L)",
        "negative power",
    ),
    ("optimizers/residual-proj-scale", "1/√(2L)", "unicode", "1/mpmath.sqrt(2*L)", "radical"),
    (
        "probability-statistics/bayes-rule",
        "prior·lik/evidence",
        "reordered",
        "prior*lik/evidence",
        "factors swapped",
    ),
    (
        "probability-statistics/bayes-evidence-two-hypotheses",
        "a l_1 + (1 − a) l_2",
        "reordered",
        "a*l_1+(1-a)*l_2",
        "factors swapped",
    ),
    ("probability-statistics/mle-bernoulli", "k/n", "plain", "k/n", "as written"),
    (
        "probability-statistics/map-gaussian-prior-penalty",
        "w²/(2τ²) + ½ log(2πτ²)",
        "unicode",
        "w**2/(2*tau**2)+log(2*mpmath.pi*tau**2)/2",
        "as printed",
    ),
    (
        "probability-statistics/map-laplace-prior-penalty",
        "|w|/b + log 2 + log b",
        "bare call",
        "abs(w)/b+log(2)+log(b)",
        "log of a product split",
    ),
    (
        "probability-statistics/map-ridge-lambda",
        "(σ/τ)²",
        "rewritten",
        "(sigma/tau)**2",
        "square of the ratio",
    ),
    (
        "probability-statistics/bias-variance",
        "σ² + b² + v",
        "reordered",
        "sigma**2+b**2+v",
        "terms in another order",
    ),
    ("probability-statistics/clt-variance-of-mean", "σ²/n", "unicode", "sigma**2/n", "σ²"),
    (
        "probability-statistics/standard-error",
        "σ n^(-1/2)",
        "power",
        "sigma/mpmath.sqrt(n)",
        "negative power",
    ),
    (
        "probability-statistics/correlation",
        "Cov_XY/(σ_X σ_Y)",
        "unicode",
        "Cov_XY/(sigma_X*sigma_Y)",
        "σ with subscripts",
    ),
    (
        "probability-statistics/logit",
        "log p − log(1 − p)",
        "expanded",
        "log(p)-log(1-p)",
        "log of a quotient split",
    ),
    (
        "probability-statistics/logit-inverse",
        "e^z/(1 + e^z)",
        "rewritten",
        "exp(z)/(1+exp(z))",
        "multiplied by e^z",
    ),
    ("probability-statistics/odds-ratio", "e^(w_j)", "constant e", "exp(w_j)", "e^"),
    ("regularization/l2-gradient", "2λw_j", "unicode", "2*lambda_*w_j", "λ next to w_j"),
    (
        "regularization/elastic-net",
        "λ_1|w| + λ_2 w²",
        "unicode",
        "lambda_1*abs(w)+lambda_2*w**2",
        "bars and ²",
    ),
    ("regularization/dropout-train", "h m/p", "reordered", "h*m/p", "factors swapped"),
    (
        "regularization/label-smoothing",
        "y_c − ε y_c + ε/C",
        "expanded",
        "y_c-epsilon*y_c+epsilon/C",
        "multiplied out",
    ),
    ("regularization/sgd-l2-shrink-factor", "1 − 2ηλ", "unicode", "1-2*eta*lambda_", "Greek"),
    ("regularization/early-stopping-lambda", "1/(η t)", "unicode", "1/(eta*t)", "η"),
    (
        "retrieval-evaluation/cosine-similarity",
        "(a_1 b_1 + a_2 b_2)/√((a_1² + a_2²)(b_1² + b_2²))",
        "combined",
        "(a_1*b_1+a_2*b_2)/mpmath.sqrt((a_1**2+a_2**2)*(b_1**2+b_2**2))",
        "one root of the product",
    ),
    ("retrieval-evaluation/l2-cosine", "2(1 − c)", "factored", "2*(1-c)", "2 taken out"),
    (
        "retrieval-evaluation/bm25-term",
        "IDF f (k_1 + 1)/(f + k_1 (1 − b + b L_d/L_avg))",
        "spaced",
        "IDF*f*(k_1+1)/(f+k_1*(1-b+b*L_d/L_avg))",
        "spaces for products",
    ),
    ("retrieval-evaluation/bm25-saturation", "1 + k_1", "reordered", "1+k_1", "terms swapped"),
    (
        "retrieval-evaluation/rrf-term",
        "1/(rank_r + k)",
        "reordered",
        "1/(rank_r+k)",
        "terms swapped",
    ),
    (
        "retrieval-evaluation/pass-at-k",
        "(binom(n, k) − binom(n − c, k))/binom(n, k)",
        "combined",
        "(mpmath.binomial(n, k)-mpmath.binomial(n-c, k))/mpmath.binomial(n, k)",
        "over one denominator",
    ),
    (
        "retrieval-evaluation/fid-1d",
        "(μ_r − μ_g)² + (√var_r − √var_g)²",
        "factored",
        "(mu_r-mu_g)**2+(mpmath.sqrt(var_r)-mpmath.sqrt(var_g))**2",
        "variance terms as a square",
    ),
    (
        "retrieval-evaluation/bleu",
        "BP exp((log p_1 + log p_2 + log p_3 + log p_4)/4)",
        "bare call",
        "BP*exp((log(p_1)+log(p_2)+log(p_3)+log(p_4))/4)",
        "log without parentheses",
    ),
    (
        "retrieval-evaluation/bleu-brevity-penalty",
        "min(exp(1 − r/c), 1)",
        "reordered",
        "min(exp(1-r/c), 1)",
        "arguments swapped",
    ),
    (
        "retrieval-evaluation/elo",
        "10^(R_A/400)/(10^(R_A/400) + 10^(R_B/400))",
        "rewritten",
        "mpmath.power(10, R_A/400)/(mpmath.power(10, R_A/400)+mpmath.power(10, R_B/400))",
        "as a two-way softmax in base 10",
    ),
    ("retrieval-evaluation/agent-success", "p^k", "plain", "mpmath.power(p, k)", "as written"),
    (
        "retrieval-evaluation/speculative-decoding",
        "(1 − α^(k+1))/(1 − α)",
        "unicode",
        "(1-alpha**(k+1))/(1-alpha)",
        "α",
    ),
    (
        "training-scaling/batch-scaling",
        "(B + B_crit)/B",
        "combined",
        "(B+B_crit)/B",
        "over one denominator",
    ),
    (
        "training-scaling/kaplan-n",
        "(N_c/N)^0.076",
        "plain",
        "(N_c/N)**mpmath.mpf('0.076')",
        "as written",
    ),
    (
        "training-scaling/chinchilla-loss",
        "A/N^α + B/D^β + E",
        "reordered",
        "A/N**alpha+B/D**beta+E",
        "E last, Greek exponents",
    ),
    (
        "training-scaling/compute-optimal-exponent-from-fit",
        "1/(1 + α/β)",
        "rewritten",
        "1/(1+alpha/beta)",
        "divided through by β",
    ),
    (
        "training-scaling/compute-optimal-exponent-equal",
        "0.5",
        "decimal",
        "mpmath.mpf(1)/2",
        "decimal",
    ),
    ("training-scaling/budget-n", "(C/120)^0.5", "power", "mpmath.sqrt(C/120)", "root as a power"),
    ("training-scaling/zero3-memory", "16N/N_d", "implicit", "16*N/N_d", "number before a name"),
    ("retrieval-evaluation/elo-odds", "400", "plain", "mpmath.mpf(400)", "as written"),
]

# (card, answer, form, why): intentionally ambiguous, so recall must ask (invalid), never grade.
AMBIGUOUS = [
    (
        "losses/huber-inner",
        "1/2r^2",
        "ambiguous",
        "(1/2)·r^2 or 1/(2r^2): an implicit product right after a divisor",
    ),
    (
        "gaussians/density-1d",
        "exp(-(x-μ)²/2σ²)/√(2πσ²)",
        "ambiguous",
        "−(x−μ)²/2 times σ², or over 2σ²: the issue's Gaussian typo",
    ),
    (
        "optimizers/cosine-schedule",
        "eta_min + 1/2 (eta_max - eta_min)(1 + cos(pi tau))",
        "ambiguous",
        "(1/2)·(...) or 1/(2(...)): a space does not say where the divisor ends",
    ),
    (
        "gaussians/kl-to-standard-normal",
        "(μ² + σ² − log σ² − 1)/2",
        "ambiguous",
        "log σ² could be log(σ²) or (log σ)²",
    ),
]

# (card, answer, form, means, drop, why): the typed text without its article and the ``drop``
# words is ``means`` (an accepted name), or one or two edits from it for a ``typo``.
WORDS = [
    (
        "regularization/l1-prior",
        "a Laplace prior",
        "article and head noun",
        "Laplace",
        ["prior"],
        "the issue's example: 'a ▢ prior'",
    ),
    (
        "regularization/l1-prior",
        "the Laplace distribution",
        "article and head noun",
        "Laplace",
        ["distribution"],
        "a prior is a distribution",
    ),
    (
        "regularization/l1-prior",
        "a Laplacian prior",
        "article and head noun",
        "Laplacian",
        ["prior"],
        "the adjective form",
    ),
    (
        "regularization/l1-prior",
        "a double exponential prior",
        "article and head noun",
        "double exponential",
        ["prior"],
        "the other name",
    ),
    (
        "generative-models/ar-factorization",
        "preceeding",
        "typo",
        "preceding",
        [],
        "the issue's typo: one letter doubled",
    ),
    (
        "generative-models/ar-factorization",
        "the previous token",
        "article and head noun",
        "previous",
        ["token"],
        "'every ▢ token'",
    ),
    ("losses/name-huber", "the Huber loss", "article", "Huber loss", [], "'Name this loss.'"),
    ("losses/name-huber", "smooth L1", "synonym", "smooth L1", [], "the other name"),
    (
        "losses/name-mse",
        "Mean-Squared Error",
        "spelling",
        "mean squared error",
        [],
        "capitals and a hyphen",
    ),
    (
        "losses/name-mse",
        "the MSE loss",
        "article and head noun",
        "MSE",
        ["loss"],
        "acronym with the genre word",
    ),
    (
        "optimizers/name-adamw",
        "the AdamW optimizer",
        "article and head noun",
        "AdamW",
        ["optimizer"],
        "'Name this optimizer'",
    ),
    (
        "optimizers/name-adam",
        "the Adam optimizer",
        "article and head noun",
        "Adam",
        ["optimizer"],
        "'Name this optimizer.'",
    ),
    (
        "activations/name-sigmoid-derivative",
        "the logistic sigmoid",
        "article",
        "logistic sigmoid",
        [],
        "full name with an article",
    ),
    (
        "activations/name-sigmoid-derivative",
        "a sigmoid activation",
        "article and head noun",
        "sigmoid",
        ["activation"],
        "'which activation?'",
    ),
    (
        "activations/softmax-stability",
        "the largest logit",
        "article and head noun",
        "largest",
        ["logit"],
        "'subtract the ▢ logit'",
    ),
    ("activations/softmax-stability", "maximum", "synonym", "maximum", [], "listed name"),
    (
        "activations/temperature-to-infinity",
        "a uniform distribution",
        "article and head noun",
        "uniform",
        ["distribution"],
        "uniform over the classes",
    ),
    (
        "inference-cost/decode-bound",
        "memory bandwidth bound",
        "head noun",
        "memory bandwidth",
        ["bound"],
        "'is ▢-bound'",
    ),
    (
        "inference-cost/prefill-bound",
        "compute-bound",
        "head noun",
        "compute",
        ["bound"],
        "'is ▢-bound'",
    ),
    (
        "information-theory/name-kl",
        "the KL divergence",
        "article",
        "KL divergence",
        [],
        "with an article",
    ),
    (
        "information-theory/name-kl",
        "Kullback–Leibler divergence",
        "unicode",
        "Kullback-Leibler divergence",
        [],
        "an en dash",
    ),
    (
        "information-theory/name-kl",
        "Kullback-Liebler divergence",
        "typo",
        "Kullback-Leibler divergence",
        [],
        "ie for ei",
    ),
    (
        "information-theory/name-entropy",
        "Shannon entropy",
        "synonym",
        "Shannon entropy",
        [],
        "listed name",
    ),
    ("metrics/tpr-is-recall", "sensitivity", "synonym", "sensitivity", [], "listed name"),
    (
        "normalization/name-layernorm",
        "layer normalisation",
        "spelling",
        "layer normalisation",
        [],
        "British spelling",
    ),
    (
        "normalization/batchnorm-axis",
        "the batch dimension",
        "article and head noun",
        "batch",
        ["dimension"],
        "'over the ▢ dimension'",
    ),
    (
        "normalization/post-norm-warmup",
        "a warm-up",
        "article",
        "warm-up",
        [],
        "hyphenated with an article",
    ),
    (
        "generative-models/name-gan",
        "the GAN minimax objective",
        "article",
        "GAN minimax objective",
        [],
        "'Name this objective.'",
    ),
    (
        "gaussians/name-reparameterization",
        "the reparameterisation trick",
        "article",
        "reparameterisation trick",
        [],
        "British spelling",
    ),
    (
        "diffusion-flow/name-cfg",
        "Classifier-Free Guidance",
        "spelling",
        "classifier-free guidance",
        [],
        "capitals",
    ),
    (
        "attention-transformers/name-mha",
        "multi-head attention",
        "plain",
        "multi-head attention",
        [],
        "listed name",
    ),
    (
        "alignment/name-lora",
        "Low-Rank Adaptation",
        "spelling",
        "low-rank adaptation",
        [],
        "capitals",
    ),
    (
        "alignment/name-bradley-terry",
        "Bradly-Terry model",
        "typo",
        "Bradley-Terry",
        ["model"],
        "one letter dropped, 'Name this preference model'",
    ),
    (
        "probability-statistics/name-bayes",
        "Bayes' theorem",
        "synonym",
        "Bayes' theorem",
        [],
        "listed name",
    ),
    ("metrics/name-brier", "the Brier score", "article", "Brier score", [], "with an article"),
    ("losses/mse-minimiser", "the mean", "article", "mean", [], "'the ▢ of the targets'"),
    ("losses/mae-minimiser", "the median", "article", "median", [], "with an article"),
    (
        "information-theory/mi-zero-iff-independent",
        "statistically independent",
        "synonym",
        "statistically independent",
        [],
        "listed name",
    ),
    (
        "optimizers/lr-schedule-default",
        "cosine decay",
        "head noun",
        "cosine",
        ["decay"],
        "'followed by ▢ decay'",
    ),
    ("activations/prelu", "learned", "plain", "learned", [], "listed"),
    ("information-theory/name-perplexity", "Perplexity", "spelling", "perplexity", [], "capital"),
    (
        "metrics/name-ece",
        "expected calibration error",
        "plain",
        "expected calibration error",
        [],
        "the full name",
    ),
    (
        "diffusion-flow/name-flow-matching",
        "the flow matching loss",
        "article",
        "flow matching loss",
        [],
        "with an article",
    ),
    (
        "losses/name-bce",
        "binary cross entropy",
        "spelling",
        "binary cross-entropy",
        [],
        "no hyphen",
    ),
]

# (card, answer, form, meaning in the card's unit, why)
FACTS = [
    (
        "optimizers/warmup-fraction",
        "0.01",
        "fraction on a percent card",
        1.0,
        "the issue's example: 1% written as a fraction",
    ),
    ("optimizers/warmup-fraction", "1%", "percent", 1.0, "one percent"),
    ("optimizers/warmup-fraction", "1.5 %", "percent", 1.5, "a space before %"),
    ("optimizers/warmup-fraction", "0.5-2%", "range", (0.5, 2.0), "the sheet's range, unit once"),
    ("training-scaling/mfu-good", "45%", "percent", 45.0, "inside 40-50%"),
    (
        "training-scaling/mfu-good",
        "0.45",
        "fraction on a percent card",
        45.0,
        "45% written as a fraction",
    ),
    ("training-scaling/mfu-good", "40-50%", "range", (40.0, 50.0), "the sheet's range"),
    (
        "optimizers/cosine-floor",
        "0.1",
        "fraction on a percent card",
        10.0,
        "10% of peak as a fraction",
    ),
    ("inference-cost/serving-overhead", "20%", "percent", 20.0, "twenty percent"),
    ("optimizers/lr-7b", "3e-4", "scientific", 0.0003, "e notation"),
    ("optimizers/lr-7b", "3×10^-4", "scientific", 0.0003, "times ten to the"),
    ("optimizers/lr-7b", "3 × 10⁻⁴", "unicode", 0.0003, "superscript minus four"),
    ("optimizers/lr-7b", "0.0003", "decimal", 0.0003, "plain decimal"),
    ("optimizers/adam-eps-default", "1e-8", "scientific", 1e-8, "e notation"),
    ("optimizers/adam-eps-default", "10^-8", "power", 1e-8, "a power of ten"),
    ("optimizers/adam-beta2-default", "0.999", "decimal", 0.999, "as quoted"),
    ("optimizers/weight-decay-value", "1/10", "fraction", 0.1, "a tenth"),
    ("alignment/lora-lr", "2e-4", "scientific", 0.0002, "e notation"),
    ("alignment/lora-rank", "16", "single value", 16.0, "the low end of the range"),
    ("alignment/lora-rank", "16 to 32", "range", (16.0, 32.0), "the range in words"),
    ("training-scaling/overtraining-ratio", "1,000", "digit groups", 1000.0, "inside 500-2000"),
    ("training-scaling/chinchilla-ratio", "20", "plain", 20.0, "tokens per parameter"),
    (
        "training-scaling/adam-memory",
        "16 bytes",
        "unit",
        16.0,
        "the card's unit, singular form of bytes/param",
    ),
    ("inference-cost/kv-bytes-fp16", "2 bytes", "unit", 2.0, "the card's unit"),
    ("inference-cost/kv-bytes-int4", "0.5 bytes", "unit", 0.5, "half a byte"),
    ("inference-cost/kv-bytes-int4", "½", "vulgar fraction", 0.5, "one glyph"),
    ("information-theory/nat-in-bits", "1.443", "rounded", 1.443, "within 0.2% of 1.4427"),
    (
        "information-theory/nat-in-bits",
        "1/ln 2",
        "expression",
        1.4426950408889634,
        "1/ln 2 bits, ln without parentheses",
    ),
    ("gaussians/thin-shell-std", "1/√2", "expression", 0.7071067811865476, "one over root two"),
    (
        "generative-models/gan-minimum-value",
        "−log 4",
        "expression",
        -1.3862943611198906,
        "minus log 4 nats",
    ),
    (
        "generative-models/gan-minimum-value",
        "-2 ln 2",
        "expression",
        -1.3862943611198906,
        "the same as −2 ln 2",
    ),
    ("alignment/dpo-initial-loss", "ln 2", "expression", 0.6931471805599453, "log 2 = 0.693"),
    ("activations/sigmoid-derivative-max", "¼", "vulgar fraction", 0.25, "one glyph"),
    (
        "information-theory/english-entropy-human",
        "0.6 to 1.3",
        "range",
        (0.6, 1.3),
        "the range in words",
    ),
    ("diffusion-flow/ddpm-steps", "1000 steps", "unit", 1000.0, "the card's unit"),
    ("diffusion-flow/ddpm-steps", "1k", "suffix", 1000.0, "k for thousand"),
    ("diffusion-flow/dpm-solver-steps", "20 steps", "unit", 20.0, "inside 15-25 steps"),
    ("retrieval-evaluation/top-p", "0.9", "decimal", 0.9, "the low end"),
    ("attention-transformers/sqrt-dk-head64", "8x", "unit", 8.0, "an x for times"),
    ("attention-transformers/sqrt-dk-head64", "√64", "expression", 8.0, "the root it comes from"),
    ("metrics/roc-auc-random", "½", "vulgar fraction", 0.5, "one glyph"),
]


# ------------------------------------------------------------------------------ deck reading
def load_cards() -> dict[str, dict[str, Any]]:
    """Every card of the built-in decks by ``deck/card``, with the deck's symbols and
    functions merged under the card's own."""
    cards: dict[str, dict[str, Any]] = {}
    for path in sorted(DECKS.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        deck = data["deck"]
        for card in data.get("card", []):
            merged = dict(card)
            merged["symbols"] = {**deck.get("symbols", {}), **card.get("symbols", {})}
            merged["functions"] = {**deck.get("functions", {}), **card.get("functions", {})}
            cards[f"{deck['id']}/{card['id']}"] = merged
    return cards


# --------------------------------------------------------------------------- math, by mpmath
def sigmoid(x: Any) -> Any:
    return 1 / (1 + mpmath.exp(-x))


ENV: dict[str, Any] = {
    "mpmath": mpmath,
    "exp": mpmath.exp,
    "log": mpmath.log,
    "ln": mpmath.log,
    "sqrt": mpmath.sqrt,
    "abs": abs,
    "min": min,
    "max": max,
    "tanh": mpmath.tanh,
    "cos": mpmath.cos,
    "sin": mpmath.sin,
    "sig": sigmoid,
    "sigmoid": sigmoid,
    "softplus": lambda x: mpmath.log(1 + mpmath.exp(x)),
    "Phi": lambda x: (1 + mpmath.erf(x / mpmath.sqrt(2))) / 2,
    "log2": lambda x: mpmath.log(x, 2),
    "binom": mpmath.binomial,
    "pi": mpmath.pi,
    "e": mpmath.e,
    # Unknown functions a card declares: any fixed functions will do, the same on both sides.
    "Dfun": lambda x: mpmath.sin(3 * x) + x**2 / 5,
    "Gfun": lambda x: mpmath.cos(2 * x) - x / 3,
    "Ffun": lambda x: mpmath.sin(3 * x) + x**2 / 5,
    "Normfun": lambda x: mpmath.tanh(x) + x / 7,
    "gradfun": lambda x: mpmath.sin(x) * x,
}
UNKNOWN = {"D": "Dfun", "G": "Gfun", "F": "Ffun", "Norm": "Normfun", "grad": "gradfun"}


def reference_python(answer: str, functions: dict[str, str]) -> str:
    """A deck answer in recall's typed syntax as Python: ``^`` is ``**``, ``|x|`` is
    ``abs(x)``, ``lambda`` is ``lambda_``, a declared alias or unknown function its Python name."""
    text = answer.replace("^", "**")
    out, opened = [], 0
    for index, char in enumerate(text):
        if char != "|":
            out.append(char)
            continue
        before = text[:index].rstrip()
        if opened and before and (before[-1].isalnum() or before[-1] in ")_"):
            out.append(")")
            opened -= 1
        else:
            out.append("abs(")
            opened += 1
    text = "".join(out)
    text = re.sub(r"\blambda\b", "lambda_", text)
    # Every literal exact: 2/3 and 0.076 are the rationals they spell, not binary floats.
    text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)", r"mpmath.mpf('\1')", text)
    for name, spec in functions.items():
        means = spec.get("means", "unknown") if isinstance(spec, dict) else spec
        target = "sig" if means == "sigmoid" else UNKNOWN.get(name, name)
        text = re.sub(rf"\b{re.escape(name)}\(", f"{target}(", text)
    return text


def draw(domain: str, rng: random.Random) -> Any:
    """A point of a declared domain (reals kept to a few units, away from the edges)."""
    domain = domain.strip()
    if domain in ("positive integer", "nonnegative integer", "integer"):
        low = 0 if domain == "nonnegative integer" else 1
        return mpmath.mpf(rng.randint(low + 1, 9))
    if domain == "positive":
        return mpmath.mpf(rng.uniform(0.2, 4))
    if domain == "nonnegative":
        return mpmath.mpf(rng.uniform(0.05, 4))
    if domain == "negative":
        return mpmath.mpf(-rng.uniform(0.2, 4))
    if domain[:1] in "([":
        low_text, high_text = domain[1:-1].split(",")
        low = float(low_text) if low_text.strip() not in ("-inf",) else -4.0
        high = float(high_text) if high_text.strip() not in ("inf",) else low + 5.0
        span = high - low
        return mpmath.mpf(rng.uniform(low + 0.05 * span, high - 0.05 * span))
    return mpmath.mpf(rng.uniform(-3, 3)) or mpmath.mpf("0.5")


def check_math(card: dict[str, Any], meaning: str, seed: int) -> str:
    """``meaning`` equals the card's reference at every drawn point, or a reason it does not."""
    rng = random.Random(seed)
    reference = reference_python(card["answer"], card["functions"])
    names = {
        ("lambda_" if name == "lambda" else name): domain.get("domain", "real")
        for name, domain in card["symbols"].items()
    }
    agreed = 0
    with mpmath.workdps(DIGITS):
        for _ in range(POINTS * 5):
            point = {name: draw(domain, rng) for name, domain in names.items()}
            scope = {**ENV, **point}
            try:
                want = eval(reference, scope)  # noqa: S307 - our own deck text, never learner input
                got = eval(meaning, scope)  # noqa: S307 - our own transcription
            except (ValueError, ZeroDivisionError, TypeError, NameError) as error:
                if isinstance(error, NameError):
                    return f"cannot evaluate: {error}"
                continue
            if isinstance(want, mpmath.mpc) or isinstance(got, mpmath.mpc):
                continue
            scale = max(mpmath.mpf(1), abs(want), abs(got))
            if abs(want - got) > mpmath.mpf(10) ** (-35) * scale:
                return f"differs at {point}: reference {want}, meaning {got}"
            agreed += 1
            if agreed == POINTS:
                return ""
    return f"only {agreed} points could be evaluated"


# ------------------------------------------------------------------------------ facts, words
def check_fact(card: dict[str, Any], meaning: Any) -> str:
    if isinstance(meaning, tuple):
        low, high = card.get("range", (None, None))
        return "" if (low, high) == meaning else f"range {meaning} is not the sheet's {low}-{high}"
    if "range" in card:
        low, high = card["range"]
        return "" if low <= meaning <= high else f"{meaning} outside {low}-{high}"
    value = card["value"]
    tolerance = card.get("tolerance", {"relative": 0.01})
    if "absolute" in tolerance:
        allowed = tolerance["absolute"]
    elif "relative" in tolerance:
        allowed = tolerance["relative"] * abs(value)
    else:  # exact: only a float spelling of the same decimal
        allowed = 1e-12 * max(1.0, abs(value))
    return "" if abs(meaning - value) <= allowed else f"{meaning} is not {value} ± {allowed}"


def folded(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(
        c.casefold() if c.isalnum() else " "
        for c in decomposed
        if c.isalnum() or not unicodedata.combining(c)
    )
    words = kept.split()
    return "".join(words)


def edits(a: str, b: str) -> int:
    rows = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, rows[0] = rows[0], i
        for j, y in enumerate(b, 1):
            previous, rows[j] = rows[j], min(rows[j] + 1, rows[j - 1] + 1, previous + (x != y))
    return rows[-1]


def check_words(card: dict[str, Any], answer: str, means: str, drop: list[str], form: str) -> str:
    accepted = card.get("accept", [])
    if means not in accepted:
        return f"{means!r} is not one of the card's names {accepted}"
    words = answer.split()
    if words and words[0].casefold() in ("a", "an", "the"):
        words = words[1:]
    text = " ".join(words)
    for word in drop:
        if text.casefold().endswith(word.casefold()):
            text = text[: -len(word)].rstrip(" -")
    distance = edits(folded(text), folded(means))
    if form == "typo":
        return "" if 1 <= distance <= 2 else f"{text!r} is {distance} edits from {means!r}"
    return "" if distance == 0 else f"{text!r} is not {means!r}"


# ----------------------------------------------------------------------------------- build
def build() -> list[dict[str, Any]]:
    cards = load_cards()
    lines: list[dict[str, Any]] = []
    problems: list[str] = []

    def card_of(key: str) -> dict[str, Any]:
        if key not in cards:
            problems.append(f"{key}: no such card")
            return {}
        return cards[key]

    for number, (key, answer, form, meaning, why) in enumerate(MATH, start=1):
        card = card_of(key)
        problem = check_math(card, meaning, seed=number) if card else "missing"
        if problem:
            problems.append(f"{key} {answer!r}: {problem}")
        lines.append(
            {
                "id": f"math-{number:03d}",
                "card": key,
                "kind": card.get("kind", ""),
                "form": form,
                "answer": answer,
                "meaning": meaning,
                "why": why,
                "verified": f"mpmath at {POINTS} points of the card's domains, {DIGITS} digits",
            }
        )
    for number, (key, answer, form, why) in enumerate(AMBIGUOUS, start=1):
        card = card_of(key)
        lines.append(
            {
                "id": f"ambiguous-{number:02d}",
                "card": key,
                "kind": card.get("kind", ""),
                "form": form,
                "answer": answer,
                "ambiguous": True,
                "why": why,
                "verified": "by reasoning: two readings, both plausible",
            }
        )
    for number, (key, answer, form, means, drop, why) in enumerate(WORDS, start=1):
        card = card_of(key)
        problem = check_words(card, answer, means, drop, form) if card else "missing"
        if problem:
            problems.append(f"{key} {answer!r}: {problem}")
        lines.append(
            {
                "id": f"words-{number:03d}",
                "card": key,
                "kind": card.get("kind", ""),
                "form": form,
                "answer": answer,
                "means": means,
                "drop": drop,
                "why": why,
                "verified": "the accepted name after the article and the prompt's words"
                + (", one or two edits away" if form == "typo" else ""),
            }
        )
    for number, (key, answer, form, meaning, why) in enumerate(FACTS, start=1):
        card = card_of(key)
        problem = check_fact(card, meaning) if card else "missing"
        if problem:
            problems.append(f"{key} {answer!r}: {problem}")
        lines.append(
            {
                "id": f"fact-{number:03d}",
                "card": key,
                "kind": card.get("kind", ""),
                "form": form,
                "answer": answer,
                "meaning": list(meaning) if isinstance(meaning, tuple) else meaning,
                "why": why,
                "verified": "against the deck's value and tolerance, or its range",
            }
        )
    if problems:
        raise SystemExit("the corpus does not check out:\n  " + "\n  ".join(problems))
    return lines


def render(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify the file, change nothing")
    args = parser.parse_args(argv)
    text = render(build())
    if args.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.name} is not what the builder computes", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.name}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
