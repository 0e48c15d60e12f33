"""The person model: the few lines a friend would simply know about someone.

Built by rules from their current memories (`person_model`, what a line may say: `person_values`), rebuilt in
the background after their memories change (`person_model_keeper`) and kept sealed in Redis
(`person_model_store`).

It reads recall's and writing's vocabulary (what is worth showing, digests, gists); no other room imports it,
only memory's service and factory (contracts in pyproject.toml).
"""
