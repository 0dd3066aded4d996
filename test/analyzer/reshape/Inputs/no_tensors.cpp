// A seed with nothing to reshape: no marker and no tensor.
int twice(int x) { return 2 * x; }
int main() { return twice(0); }
