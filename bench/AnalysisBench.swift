/// Not written yet.
func runAnalysisBench() {
  print("(not written yet)")
}
