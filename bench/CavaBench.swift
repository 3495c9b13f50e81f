/// Not written yet.
func runCavaBench() {
  print("(not written yet)")
}
