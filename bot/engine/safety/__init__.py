"""What every reply must respect, whatever the persona says: a person in crisis and where they can find help,
age and explicit content, break reminders for minors, and saying it is an AI.

It imports plain data, the ports and the texts; never the conversation, the prompt or the media.
"""
