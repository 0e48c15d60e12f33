"""jobs package."""
