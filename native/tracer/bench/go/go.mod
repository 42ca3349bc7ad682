module gotrace.local/tracerbench

go 1.23
