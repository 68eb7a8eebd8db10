"""Sphinx configuration for sklearn-faithful.

Build (from the repository root)::

    pip install -e ".[docs]"
    python -m sphinx -W -b html doc doc/_build/html

The gallery runs every example except those marked slow (a line
``# docs-gallery: slow`` in the example); ``SKLEARN_FAITHFUL_FULL_GALLERY=1``
runs them all, as CI does, and ``-D plot_gallery=0`` runs none. The build
needs no network: MathJax comes from the ``sphinx-mathjax-offline`` package,
and intersphinx links are made only to the inventories that can be reached.
The build is nitpicky: every cross-reference to this package must resolve.
"""

import importlib.util
import os
import re
import urllib.request
from pathlib import Path

import sklearn_faithful

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent / "examples"

project = "sklearn-faithful"
copyright = "2026, the sklearn-faithful developers"
release = sklearn_faithful.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]
templates_path = ["_templates"]
exclude_patterns = ["_build", "sg_execution_times.rst"]
root_doc = "index"
default_role = "literal"

# -- API pages ---------------------------------------------------------------
# Each public class gets a page with its methods: a table (the template in
# _templates/autosummary/class.rst) and every method documented below it.
autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": True}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True


def _skip_foreign_member(app, what, name, obj, skip, options):
    """Document only what this package defines.

    Methods inherited from scikit-learn (``get_params``, metadata routing) or
    from ``tuple`` are documented elsewhere; their docstrings are not ours to
    validate.
    """
    if skip or name.startswith("_"):
        return None
    if type(obj).__name__ == "_tuplegetter":
        return True  # a named tuple's field: its class docstring describes it
    target = obj.fget if isinstance(obj, property) else obj
    module = getattr(target, "__module__", None) or ""
    if callable(target) and not module.startswith("sklearn_faithful"):
        return True  # inherited from scikit-learn or a builtin (tuple.count)
    return None


# -- Math: MathJax from the sphinx-mathjax-offline package, no CDN -----------
_mathjax = importlib.util.find_spec("sphinx-mathjax-offline")
if _mathjax is None or _mathjax.origin is None:
    raise RuntimeError(
        "the docs render math with a local MathJax: pip install -e '.[docs]' "
        "(it installs sphinx-mathjax-offline)"
    )
# the folder 'static' holds 'mathjax/'; Sphinx copies it into _static/
html_static_path = [str(Path(_mathjax.origin).parent / "static")]
mathjax_path = "mathjax/tex-chtml.js"

# -- Intersphinx: only to the inventories this machine can reach -------------
# A failed fetch is a warning, and -W makes it an error; offline, the names
# of numpy, scipy and scikit-learn are printed without links instead.
_INVENTORIES = {
    "python": "https://docs.python.org/3",
    "numpy": "https://numpy.org/doc/stable",
    "scipy": "https://docs.scipy.org/doc/scipy",
    "sklearn": "https://scikit-learn.org/stable",
    "joblib": "https://joblib.readthedocs.io/en/stable",
    "matplotlib": "https://matplotlib.org/stable",
}


def _reachable(url, timeout=5.0):
    if os.environ.get("SKLEARN_FAITHFUL_DOCS_OFFLINE", "0") == "1":
        return False
    request = urllib.request.Request(url + "/objects.inv", method="HEAD")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status == 200
    except (OSError, ValueError):
        return False


intersphinx_mapping = {
    name: (url, None) for name, url in _INVENTORIES.items() if _reachable(url)
}
intersphinx_timeout = 10

# -- Nitpicky: every cross-reference must resolve ----------------------------
# Our own names always resolve (each has an API page), and a broken link to
# one of them fails the build. The names of the libraries we extend (numpy,
# scipy, scikit-learn, joblib, matplotlib) resolve through intersphinx when
# their inventory could be fetched; offline they cannot, so for exactly those
# packages whose inventory is missing, their names are printed without a link
# instead of failing the build. No name of this package is ever ignored.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", rf"{package}(\..*)?")
    for package in ("numpy", "scipy", "sklearn", "joblib", "matplotlib")
    if package not in intersphinx_mapping
]


def _sklearn_glossary_offline(app, env, node, contnode):
    """Link ``:term:`` roles to scikit-learn's glossary when it is not mapped.

    The docstrings use scikit-learn's glossary terms (``predict_proba``), as
    scikit-learn's do. Intersphinx resolves them when the inventory could be
    fetched; otherwise this links them by URL, so the build does not warn.
    """
    if node.get("refdomain") != "std" or node.get("reftype") != "term":
        return None
    if "sklearn" in intersphinx_mapping:
        return None
    from docutils import nodes

    target = node["reftarget"]
    # the anchor Sphinx gives a glossary term (sphinx.util.nodes._make_id)
    anchor = "term-" + re.sub(r"[^a-zA-Z0-9._]+", "-", target).strip("-")
    uri = f"{_INVENTORIES['sklearn']}/glossary.html#{anchor}"
    reference = nodes.reference("", "", internal=False, refuri=uri, reftitle=target)
    reference.append(contnode)
    return reference


# -- Gallery -----------------------------------------------------------------
SLOW_MARK = "# docs-gallery: slow"
FULL_GALLERY = os.environ.get("SKLEARN_FAITHFUL_FULL_GALLERY", "0") == "1"


def _gallery_pattern():
    """Run every example in a full build, the quick ones otherwise."""
    if FULL_GALLERY:
        return r"[\\/]plot_"
    quick = [
        re.escape(path.name)
        for path in sorted(EXAMPLES.glob("plot_*.py"))
        if SLOW_MARK not in path.read_text(encoding="utf-8")
    ]
    return r"[\\/](" + "|".join(quick or ["(?!)"]) + ")$"


sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": _gallery_pattern(),
    "doc_module": ("sklearn_faithful",),
    "reference_url": {"sklearn_faithful": None},
    "backreferences_dir": "generated/backreferences",
    "remove_config_comments": True,
    "abort_on_example_error": False,
    "matplotlib_animations": False,
    "show_memory": False,
    "min_reported_time": 1,
    "write_computation_times": False,
}

# -- HTML --------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"sklearn-faithful {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "header_links_before_dropdown": 8,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
}
html_sidebars = {"install": [], "changelog": []}
html_show_sourcelink = False


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign_member)
    app.connect("missing-reference", _sklearn_glossary_offline, priority=900)
