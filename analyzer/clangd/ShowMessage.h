// Messages from placelint-clangd to the user, which clangd has no interface
// for: clangd's LSP output goes through a relay that inserts an LSP
// window/showMessage notification between two of clangd's messages.
#pragma once

#include <string>

namespace placelint::clangd {

// Puts the relay between clangd and stdout. Called once, before clangd
// starts; without it, messages go to the log (stderr) only.
void relayLspOutput();

// Shows Text to the user as a warning, and logs it: the first call in the
// process (one editor connection) does; later calls do nothing.
void showMessageOnce(const std::string &Text);

} // namespace placelint::clangd
