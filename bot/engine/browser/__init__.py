"""The memory browser's engine side: what the page where a person sees and corrects their memories shows and
changes, in plain values the web adapter renders.

It imports plain data, the ports, the commands it shares its rules with and the texts.
"""
