"""The battles room's option lists, light enough for the command line.

No numpy, scipy or scikit-learn here: ``sklearn-faithful --help`` reads these
lists without importing them. The room's functions validate against the same
tuples, so each rule has one home.
"""

# ``ties`` of bradley_terry: a tie is half a win for each system (as
# arena-hard-auto and Chatbot Arena count it), Davidson's (1970) tie
# parameter, or dropped
TIES = ("half", "davidson", "drop")

# ``scale`` of bradley_terry: log-strengths, or Elo-like points (400/ln 10
# points per unit of log-strength, 1000 at the reference, as Chatbot Arena)
SCALES = ("log", "elo")

# what a code of the winner may mean (``winner_codes``)
OUTCOMES = ("a", "b", "tie", "drop")

# the winner codes read without ``winner_codes``: ours, and those of
# lmarena's arena-hard-auto and the Chatbot Arena dumps; matched after
# stripping white space and ignoring case
WINNER_CODES = {
    "a": "a",
    "b": "b",
    "tie": "tie",
    "model_a": "a",
    "model_b": "b",
    "tie (bothbad)": "tie",
}

# the names of the columns (fields) of a battle, tried in this order when
# none are given
COLUMNS = (("model_a", "model_b", "winner"), ("system_a", "system_b", "winner"))

# ``interval`` of bradley_terry: how a rating's interval is read from its
# bootstrap distribution. The default, the normal interval with the bootstrap
# standard error, held its level in every setting of benchmarks/sim_battles.py
# (user guide, "Coverage: what we measured"), the closest of the candidates;
# the percentile interval fell short with few battles.
INTERVALS = ("normal", "percentile", "basic")
