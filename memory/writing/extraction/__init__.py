"""Turning what a person says into candidate memories: offline patterns always, an LLM when available."""

from memory.writing.extraction.candidates import Candidate

__all__ = ["Candidate"]
