/// Not written yet.
func runSocketBench() {
  print("(not written yet)")
}
