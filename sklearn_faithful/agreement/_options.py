"""STUB (agree-cli): removed before merging main."""

LEVELS_OF_MEASUREMENT = ("nominal", "ordinal", "interval", "ratio")
COEFFICIENTS = (
    "krippendorff_alpha",
    "fleiss_kappa",
    "gwet_ac",
    "scotts_pi",
    "cohen_kappa",
    "percent_agreement",
)
