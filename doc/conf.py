"""Sphinx configuration for sklearn-faithful (build: pip install '.[docs]';
sphinx-build doc doc/_build/html)."""

import sklearn_faithful

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
autosummary_generate = True
numpydoc_show_class_members = False
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    "numpy": ("https://numpy.org/doc/stable", None),
    "scipy": ("https://docs.scipy.org/doc/scipy", None),
    "sklearn": ("https://scikit-learn.org/stable", None),
}
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": "/plot_",
}
html_theme = "alabaster"
exclude_patterns = ["_build"]
