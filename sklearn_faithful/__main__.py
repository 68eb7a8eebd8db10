"""Allow ``python -m sklearn_faithful``."""

import sys

from .cli import main

sys.exit(main())
