// The layer link check's program (core/CMakeLists.txt): it does nothing, but is linked with every object of
// one module and only the modules that one may use, so that a call into any other module (declared by
// hand, with no include for the layer check to see) is an undefined reference.
int main() {
    return 0;
}
