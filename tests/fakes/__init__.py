"""Loopback fakes of the outside services Souvenir talks to, for end-to-end tests."""
