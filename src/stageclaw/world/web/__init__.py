"""The local web apps of a world: a travel site, an expense portal and a company intranet.

`data` is their SQLite store and State JSON (`web/APP/TABLE`); `server` serves every episode's
apps from one HTTP server per service pool, each episode under its own secret path prefix.
"""
