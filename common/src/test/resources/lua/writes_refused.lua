-- Whether lib/errors reads ARGV[1], the text of an error a command raised in a script, as Redis refusing writes.
return writes_refused(ARGV[1]) and 1 or 0
