module example.com/slt/redigo

go 1.26.0

require github.com/gomodule/redigo v1.9.3
