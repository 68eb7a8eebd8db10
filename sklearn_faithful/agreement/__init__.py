"""Can the labels be trusted? Agreement among annotators, and the model's.

Krippendorff's alpha (any level of measurement, any number of coders,
missing values), Fleiss' kappa, Scott's pi, Gwet's AC1/AC2 and raw agreement
on reliability data (coders x units), with intervals from the unit
bootstrap; each coder's agreement with the rest; the model as one more
annotator. Cohen's kappa of two annotators is scikit-learn's
``cohen_kappa_score``, its interval
:func:`~sklearn_faithful.holdout.kappa_confidence_interval`.
"""

from ..utils._lazy import attach

__getattr__, __dir__, __all__ = attach(
    __name__,
    {
        "_coefficients": [
            "AgreementInterval",
            "agreement_confidence_interval",
            "fleiss_kappa",
            "gwet_ac",
            "krippendorff_alpha",
            "percent_agreement",
            "scotts_pi",
        ],
        "_data": ["reliability_data_from_long"],
        "_model": ["AnnotatorComparisonResult", "compare_to_annotators"],
        "_report": [
            "AgreementReport",
            "CoderDiagnostics",
            "agreement_report",
            "coder_diagnostics",
        ],
    },
)
