"""Search: the query language, the word index, its cache and its parts built on several cores."""
