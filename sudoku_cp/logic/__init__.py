"""Human-style solving: techniques, their steps, explanations and ratings."""
