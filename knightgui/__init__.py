"""knightgui: a desktop explorer for knight's tours built by Warnsdorff's rule."""
__version__ = "0.1.0"
