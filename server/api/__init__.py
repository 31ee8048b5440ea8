"""The HTTP layer: routes and page rendering only; no rules, no SQL beyond store calls."""
