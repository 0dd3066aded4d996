// Crashes the compiler front end on purpose (a clang debugging pragma): the
// run must report the crash and go on with the other files.
#pragma clang __debug crash
