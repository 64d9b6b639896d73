"""Widgets the screens share: the countdown, the math panels, the review heatmap."""
