"""Voice notes and pictures: what a received voice note is, the engine with ears and a voice, the companion's
photos (the image prompt's rules, the daily limit, the marker a reply asks for one with) and the ports they
go through.

It imports plain data, the ports, the persona and the texts; never the commands or the safety rules.
"""
