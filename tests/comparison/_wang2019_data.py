"""Per-split (n_gold, n_pred, n_correct) triples of Wang & Li (2019).

Published with the paper's experiments (github.com/RamboWANG/acl2019, file
b3x2cv_baytest_prf.py): CRF chunkers with two tag sets each, on the six
splits of a 3x2 BCV. Models A and B of Tables 2-5.
"""

CWS = (
    # Bakeoff-2005 PKU word segmentation; A = BMES, B = BB2B3MES (Table 3)
    [
        [560914, 557693, 533644],
        [549033, 546259, 521973],
        [555819, 553001, 528014],
        [554128, 551283, 527333],
        [552806, 550079, 525858],
        [557141, 553922, 529186],
    ],
    [
        [560914, 558138, 534649],
        [549033, 546514, 522380],
        [555819, 553318, 528709],
        [554128, 551612, 527878],
        [552806, 550544, 526632],
        [557141, 554312, 529580],
    ],
)

NER = (
    # CoNLL 2003 English NER, all entities; A = IOB2, B = IOBES (Table 4)
    [
        [11629, 11322, 10297],
        [11870, 11428, 10423],
        [11718, 11370, 10333],
        [11781, 11402, 10347],
        [11684, 11264, 10276],
        [11815, 11494, 10424],
    ],
    [
        [11629, 11329, 10326],
        [11870, 11440, 10429],
        [11718, 11357, 10354],
        [11781, 11386, 10339],
        [11684, 11269, 10270],
        [11815, 11481, 10447],
    ],
)

ORG = (
    # CoNLL 2003, ORG entities only; A = IOB2, B = IOBES (Table 5)
    [
        [3146, 2242, 2088],
        [3175, 2298, 2109],
        [3142, 2288, 2098],
        [3179, 2250, 2085],
        [3143, 2261, 2069],
        [3178, 2245, 2068],
    ],
    [
        [3146, 2226, 2075],
        [3175, 2289, 2114],
        [3142, 2255, 2080],
        [3179, 2229, 2071],
        [3143, 2210, 2041],
        [3178, 2218, 2054],
    ],
)

# Table 2: 95% credible intervals in percent, (A, B) per metric.
TABLE_2 = {
    "CWS": {
        "precision": ((95.55, 95.62), (95.60, 95.67)),
        "recall": ((95.04, 95.11), (95.16, 95.23)),
        "f1": ((95.30, 95.36), (95.39, 95.44)),
    },
    "NER": {
        "precision": ((90.59, 91.30), (90.70, 91.41)),
        "recall": ((87.69, 88.48), (87.78, 88.57)),
        "f1": ((89.21, 89.77), (89.32, 89.87)),
    },
    "ORG": {
        "precision": ((91.37, 92.86), (91.85, 93.31)),
        "recall": ((64.89, 67.11), (64.45, 66.68)),
        "f1": ((76.06, 77.74), (75.93, 77.61)),
    },
}

# Tables 3-5: P(H0) and the decision, by Monte Carlo with 10^6 draws.
TABLES_3_TO_5 = {
    "CWS": {
        "precision": (0.024, "accept H1"),
        "recall": (0.001, "accept H1"),
        "f1": (0.001, "accept H1"),
    },
    "NER": {
        "precision": (0.321, "accept H1"),
        "recall": (0.372, "accept H1"),
        "f1": (0.300, "accept H1"),
    },
    "ORG": {
        "precision": (0.191, "accept H1"),
        "recall": (0.706, "accept H0"),
        "f1": (0.587, "accept H0"),
    },
}

TASKS = {"CWS": CWS, "NER": NER, "ORG": ORG}
