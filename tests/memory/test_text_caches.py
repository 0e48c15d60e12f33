"""The per-process caches of words and texts: bounded, and emptied by an erasure."""

from memory.lexical import stems
from memory.sparse import tokenize
from memory.text_caches import WordCache, cached_texts, forget_cached_texts


def test_a_word_cache_computes_each_word_once_and_stays_within_its_size() -> None:
    computed: list[str] = []

    def upper(word: str) -> str:
        computed.append(word)
        return word.upper()

    cache = WordCache(upper, maxsize=3)
    assert [cache[w] for w in ("miso", "jazz", "miso")] == ["MISO", "JAZZ", "MISO"]
    assert computed == ["miso", "jazz"]
    for word in ("lyon", "paris", "nantes", "brest"):
        assert cache[word] == word.upper()
        assert len(cache) <= 3


def test_words_met_by_recall_are_forgotten_with_the_texts() -> None:
    assert tokenize("Zanzibarette adopted kittens") == ["zanzibarette", "adopted", "kitten"]
    assert stems("Zanzibarette") == stems("zanzibarettes")
    assert cached_texts() > 0
    forget_cached_texts()
    assert cached_texts() == 0
    # and they come back the same when met again
    assert tokenize("Zanzibarette adopted kittens") == ["zanzibarette", "adopted", "kitten"]
