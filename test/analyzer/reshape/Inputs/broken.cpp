// A seed that does not compile.
int main() { return undeclared; }
