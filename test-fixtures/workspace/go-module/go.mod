module example.com/geometry

go 1.19
