output.ready = true
