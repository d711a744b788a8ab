"""Pure-Python rules engine for Dam, Dam med dolda kort and Spardame.

Nothing in this package imports Django: the site, the bots, the benchmark scripts and the
scenario checker all drive the same code.
"""
