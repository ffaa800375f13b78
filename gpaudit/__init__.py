"""gpaudit: does a smooth-sensitivity Geo-Privacy mechanism keep the promise its constants make?"""

__version__ = "0.3.7"
