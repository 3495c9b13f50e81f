/// Not written yet.
func runSceneBench() {
  print("(not written yet)")
}
