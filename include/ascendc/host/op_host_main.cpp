// The host program `ascendc op run` links with an operator's op_host sources: it reads the
// request the command wrote (operator, platform, inputs, attributes), finds the registered
// definition, picks the data-type combination, runs InferShape / InferDataType and the
// TilingFunc, checks what the TilingFunc set, saves the tiling bytes and prints the outcome as
// `key value…` lines to the report file. Any failure is an `error: …` line on stderr and exit status 3.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "ascendc/host_api/tiling/template_argument.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace ascendc_host {
namespace {

using ascendc_host::Fail;

// Bytes of the raw tiling buffer a TilingFunc writes into.
constexpr size_t kTilingCapacity = 64 * 1024;
// Pattern the tiling buffer holds before the TilingFunc runs (to find writes past the
// declared size).
constexpr uint8_t kUnwritten = 0xA5;

struct GivenInput {
    std::string name;
    ge::DataType dtype;
    std::string file;
    gert::Shape shape;
};

struct Request {
    std::string op;
    std::vector<GivenInput> inputs;
    std::vector<std::string> outputs;
    // Shapes given on the command line (`--output y=y.bin:float16:8,16`), by output name.
    std::map<std::string, gert::Shape> outputShapes;
    std::vector<std::pair<std::string, std::string>> attrs;
    std::string tilingFile;
    std::string reportFile;
};

std::string Join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) {
        s += (s.empty() ? "" : ", ") + x;
    }
    return s.empty() ? "none" : s;
}

std::string ShapeText(const gert::Shape& s) {
    std::string t = "[";
    for (size_t i = 0; i < s.GetDimNum(); ++i) {
        t += (i ? ", " : "") + std::to_string(s.GetDim(i));
    }
    return t + "]";
}

const char* DtypeName(ge::DataType d) {
    switch (d) {
        case ge::DT_FLOAT: return "float32";
        case ge::DT_FLOAT16: return "float16";
        case ge::DT_BF16: return "bfloat16";
        case ge::DT_INT8: return "int8";
        case ge::DT_UINT8: return "uint8";
        case ge::DT_INT16: return "int16";
        case ge::DT_UINT16: return "uint16";
        case ge::DT_INT32: return "int32";
        case ge::DT_UINT32: return "uint32";
        case ge::DT_INT64: return "int64";
        case ge::DT_UINT64: return "uint64";
        case ge::DT_DOUBLE: return "float64";
        case ge::DT_BOOL: return "bool";
        default: return "unsupported";
    }
}

int64_t ParseInt(const std::string& t, const std::string& what) {
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(t.c_str(), &end, 10);
    if (t.empty() || *end != '\0' || errno != 0) {
        Fail(what + ": '" + t + "' is not an integer");
    }
    return v;
}

Request ReadRequest(const char* path) {
    std::ifstream in(path);
    if (!in) {
        Fail(std::string("cannot read the request ") + path);
    }
    Request r;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string key;
        ls >> key;
        if (key == "op") {
            ls >> r.op;
        } else if (key == "platform") {
            if (!fe::ReadPlatformFields(ls, CurrentPlatform())) {
                Fail("the request's platform line is incomplete: " + line);
            }
        } else if (key == "input") {
            GivenInput g;
            int dt = 0;
            size_t rank = 0;
            ls >> g.name >> dt >> g.file >> rank;
            g.dtype = static_cast<ge::DataType>(dt);
            for (size_t i = 0; i < rank; ++i) {
                int64_t d = 0;
                ls >> d;
                g.shape.AppendDim(d);
            }
            r.inputs.push_back(g);
        } else if (key == "output") {
            std::string name;
            size_t rank = 0;
            ls >> name;
            r.outputs.push_back(name);
            if (ls >> rank) {
                gert::Shape shape;
                for (size_t i = 0; i < rank; ++i) {
                    int64_t d = 0;
                    ls >> d;
                    shape.AppendDim(d);
                }
                r.outputShapes[name] = shape;
            }
        } else if (key == "attr") {
            std::string name, value;
            ls >> name;
            std::getline(ls, value);
            if (!value.empty() && value[0] == ' ') {
                value.erase(0, 1);
            }
            r.attrs.emplace_back(name, value);
        } else if (key == "tiling_file") {
            std::getline(ls >> std::ws, r.tilingFile);
        } else if (key == "report_file") {
            std::getline(ls >> std::ws, r.reportFile);
        }
    }
    return r;
}

std::vector<std::string> Split(const std::string& s) {
    std::vector<std::string> out;
    if (s.empty()) {
        return out;
    }
    std::string cur;
    std::istringstream is(s);
    while (std::getline(is, cur, ',')) {
        out.push_back(cur);
    }
    return out;
}

bool ParseBool(const std::string& t, const std::string& what) {
    if (t == "true" || t == "1" || t == "True") {
        return true;
    }
    if (t == "false" || t == "0" || t == "False") {
        return false;
    }
    Fail(what + ": '" + t + "' is not a bool (true, false, 1, 0)");
}

float ParseFloat(const std::string& t, const std::string& what) {
    char* end = nullptr;
    float v = std::strtof(t.c_str(), &end);
    if (t.empty() || *end != '\0') {
        Fail(what + ": '" + t + "' is not a number");
    }
    return v;
}

// The attribute value `text` as the kind `def` declares.
gert::AttrValue ParseAttr(const ops::OpAttrDef& def, const std::string& text) {
    gert::AttrValue v = def.Value();
    std::string what = "--attr " + def.Name() + " (" + gert::AttrKindName(v.kind) + ")";
    switch (v.kind) {
        case gert::AttrKind::Bool: v.b = ParseBool(text, what); break;
        case gert::AttrKind::Int: v.i = ParseInt(text, what); break;
        case gert::AttrKind::Float: v.f = ParseFloat(text, what); break;
        case gert::AttrKind::Str: v.s = text; break;
        case gert::AttrKind::ListBool: {
            std::vector<bool> l;
            for (const auto& t : Split(text)) l.push_back(ParseBool(t, what));
            v.lb = gert::TypedContinuousVector<bool>(l);
            break;
        }
        case gert::AttrKind::ListInt: {
            std::vector<int64_t> l;
            for (const auto& t : Split(text)) l.push_back(ParseInt(t, what));
            v.li = gert::TypedContinuousVector<int64_t>(l);
            break;
        }
        case gert::AttrKind::ListFloat: {
            std::vector<float> l;
            for (const auto& t : Split(text)) l.push_back(ParseFloat(t, what));
            v.lf = gert::TypedContinuousVector<float>(l);
            break;
        }
    }
    return v;
}

std::unique_ptr<ops::OpDef> FindOp(const std::string& wanted) {
    std::vector<std::unique_ptr<ops::OpDef>> defs;
    for (auto& make : ops::detail::OpFactories()) {
        defs.push_back(make());
    }
    std::vector<std::string> names;
    for (auto& d : defs) {
        names.push_back(d->AscendcType());
    }
    if (defs.empty()) {
        Fail("op_host registers no operator (an OpDef class with OP_ADD)");
    }
    if (wanted.empty()) {
        if (defs.size() > 1) {
            Fail("op_host registers " + std::to_string(defs.size()) + " operators (" + Join(names) + "): choose one with --op");
        }
        return std::move(defs[0]);
    }
    for (auto& d : defs) {
        if (d->AscendcType() == wanted) {
            return std::move(d);
        }
    }
    Fail("--op " + wanted + ": op_host registers " + Join(names));
}

// Prints a tiling struct's layout (nested structs first, each once).
void PrintStruct(std::ostream& out, const optiling::TilingDef& def, std::set<std::string>& done) {
    for (const auto& f : def.Fields()) {
        if (f.member >= 0) {
            PrintStruct(out, *def.Nested(f), done);
        }
    }
    if (!done.insert(def.GetTilingClassName()).second) {
        return;
    }
    out << "struct " << def.GetTilingClassName() << " " << def.GetDataSize() << " " << def.Alignment() << "\n";
    for (const auto& f : def.Fields()) {
        out << "field " << f.type << " " << f.name << " " << f.offset << " " << f.count << " " << (f.member >= 0 ? 1 : 0)
                  << "\n";
    }
    out << "end_struct\n";
}

std::vector<uint8_t> ReadFile(const std::string& path, size_t expected, const std::string& input) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        Fail("input " + input + ": cannot read " + path);
    }
    std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (data.size() != expected) {
        Fail("input " + input + ": " + path + " has " + std::to_string(data.size()) + " bytes, its shape and type need " +
             std::to_string(expected));
    }
    return data;
}

// Runs the operator's TilingParse (IMPL_OP_OPTILING(...).TilingParse<CompileInfo>) once on a new,
// value-initialized CompileInfo; returns that object (null without a TilingParse or type).
std::shared_ptr<void> RunTilingParse(const std::string& type, const optiling::detail::OpImpl& impl,
                                     fe::PlatFormInfos* platform) {
    std::shared_ptr<void> info = impl.makeCompileInfo != nullptr ? impl.makeCompileInfo() : nullptr;
    if (impl.tilingParse != nullptr) {
        gert::TilingParseContext ctx(type.c_str(), platform, info.get(), impl.compileInfoSize);
        ge::graphStatus st = impl.tilingParse(&ctx);
        if (st != ge::GRAPH_SUCCESS) {
            Fail("the TilingParse function of " + type + " failed: it returned " + std::to_string(st) +
                 " (not GRAPH_SUCCESS)");
        }
    }
    return info;
}

int Run(const char* requestPath) {
    Request req = ReadRequest(requestPath);
    std::unique_ptr<ops::OpDef> def = FindOp(req.op);
    const std::string& type = def->AscendcType();
    const fe::PlatFormInfos& platform = CurrentPlatform();

    // Products the operator is built for.
    const auto& socs = def->AscendcAICore().Socs();
    if (!socs.empty()) {
        std::string want = platform.soc;
        for (auto& c : want) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        bool found = false;
        for (const auto& s : socs) {
            std::string l = s;
            for (auto& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            found = found || l == want;
        }
        if (!found) {
            Fail(type + " is not configured for " + want + " (AICore().AddConfig has " + Join(socs) + "): choose one of those with --product");
        }
    }
    // The product's configuration: its kernel entry file and parameter lists, replacing the
    // definition's by name.
    const ops::OpProductConfig* config = def->AscendcAICore().Config(platform.soc);
    auto own = [&](const std::vector<std::unique_ptr<ops::OpParamDef>>& defined,
                   const std::vector<ops::OpParamDef>* replaced) {
        std::vector<const ops::OpParamDef*> v;
        for (const auto& p : defined) {
            const ops::OpParamDef* use = p.get();
            if (replaced != nullptr) {
                for (const auto& r : *replaced) {
                    if (r.Name() == p->Name()) use = &r;
                }
            }
            v.push_back(use);
        }
        return v;
    };
    const std::vector<const ops::OpParamDef*> ins = own(def->AscendcInputs(), config ? &config->inputs : nullptr);
    const std::vector<const ops::OpParamDef*> outs = own(def->AscendcOutputs(), config ? &config->outputs : nullptr);

    // Inputs in definition order.
    gert::OpIo io;
    io.type = type;
    std::vector<std::string> inNames;
    for (const auto& p : ins) inNames.push_back(p->Name());
    for (const auto& g : req.inputs) {
        bool known = false;
        for (const auto& n : inNames) known = known || n == g.name;
        if (!known) {
            Fail("--input " + g.name + ": " + type + " has no input of that name (inputs: " + Join(inNames) + ")");
        }
    }
    // The tensors given for each input, in command-line order (a DYNAMIC input takes a list).
    std::vector<std::vector<const GivenInput*>> given(ins.size());
    for (size_t i = 0; i < ins.size(); ++i) {
        const ops::OpParamDef& p = *ins[i];
        for (const auto& g : req.inputs) {
            if (g.name == p.Name()) given[i].push_back(&g);
        }
        if (given[i].size() > 1 && p.Type() != ops::DYNAMIC) {
            Fail("--input " + p.Name() + " is given " + std::to_string(given[i].size()) + " times, but only a DYNAMIC input of " +
                 type + " takes a list");
        }
        if (given[i].empty() && p.Type() != ops::OPTIONAL) {
            Fail("input " + p.Name() + " of " + type + " is required: give it with --input " + p.Name() + "=FILE" +
                 (p.Type() == ops::DYNAMIC ? " (once per tensor of the list)" : ""));
        }
    }

    // The data-type combination the inputs select.
    size_t combos = 0;
    for (const auto& p : ins) combos = std::max(combos, p->DataTypes().size());
    for (const auto& p : outs) combos = std::max(combos, p->DataTypes().size());
    for (const auto* list : {&ins, &outs}) {
        for (const auto& p : *list) {
            size_t n = p->DataTypes().size();
            if (n != 0 && n != combos && !(p->IsList() && n == 1)) {
                Fail("the DataType list of " + p->Name() + " in " + type + " has " + std::to_string(n) +
                     " types, others have " + std::to_string(combos) + ": every list needs one type per combination");
            }
        }
    }
    // Type of `p` in combination `c` (a one-type DataTypeList serves every combination).
    auto typeAt = [](const ops::OpParamDef& p, size_t c) {
        const auto& v = p.DataTypes();
        return v.empty() ? ge::DT_UNDEFINED : v[c < v.size() ? c : v.size() - 1];
    };
    size_t combo = combos;
    for (size_t c = 0; c < combos && combo == combos; ++c) {
        bool ok = true;
        for (size_t i = 0; i < given.size(); ++i) {
            for (const GivenInput* g : given[i]) {
                if (!ins[i]->DataTypes().empty() && typeAt(*ins[i], c) != g->dtype) ok = false;
            }
        }
        if (ok) combo = c;
    }
    if (combos > 0 && combo == combos) {
        std::string have, supported;
        for (size_t i = 0; i < given.size(); ++i) {
            for (const GivenInput* g : given[i]) have += (have.empty() ? "" : ", ") + g->name + "=" + DtypeName(g->dtype);
        }
        for (size_t c = 0; c < combos; ++c) {
            std::string one;
            for (const auto& p : ins) one += (one.empty() ? "" : ", ") + p->Name() + "=" + DtypeName(typeAt(*p, c));
            supported += "\n  " + one;
        }
        Fail(type + " does not accept " + have + "; its data-type combinations are:" + supported);
    }

    // One entry per instance; an OPTIONAL input not given is one absent entry.
    size_t instances = 0;
    for (const auto& g : given) instances += std::max<size_t>(g.size(), 1);
    std::vector<std::vector<uint8_t>> data(instances);
    for (size_t i = 0; i < ins.size(); ++i) {
        io.irInputs.emplace_back(io.inShapes.size(), given[i].size());
        if (given[i].empty()) {
            io.inNames.push_back(ins[i]->Name());
            io.inPresent.push_back(false);
            io.inShapes.emplace_back();
            io.inDescs.emplace_back(ge::DT_UNDEFINED);
            io.inTensors.emplace_back();
            continue;
        }
        for (const GivenInput* g : given[i]) {
            size_t at = io.inShapes.size();
            size_t bytes = static_cast<size_t>(g->shape.GetShapeSize()) * static_cast<size_t>(ge::GetSizeByDataType(g->dtype));
            data[at] = ReadFile(g->file, bytes, g->name);
            gert::StorageShape shape(g->shape);
            io.inNames.push_back(g->name);
            io.inPresent.push_back(true);
            io.inShapes.push_back(shape);
            io.inDescs.emplace_back(g->dtype);
            io.inTensors.emplace_back(shape, g->dtype, data[at].data(), data[at].size());
        }
    }

    // Outputs: every defined output must be named.
    std::vector<std::string> outNames;
    for (const auto& p : outs) outNames.push_back(p->Name());
    for (const auto& o : req.outputs) {
        bool known = false;
        for (const auto& n : outNames) known = known || n == o;
        if (!known) {
            Fail("--output " + o + ": " + type + " has no output of that name (outputs: " + Join(outNames) + ")");
        }
    }
    gert::StorageShape firstShape;
    for (size_t i = 0; i < io.inShapes.size(); ++i) {
        if (io.inPresent[i]) {
            firstShape = io.inShapes[i];
            break;
        }
    }
    for (const auto& p : outs) {
        bool named = false;
        for (const auto& o : req.outputs) named = named || o == p->Name();
        if (!named && p->Type() == ops::REQUIRED) {
            Fail("output " + p->Name() + " of " + type + " is required: give it with --output " + p->Name() + "=FILE");
        }
        io.outNames.push_back(p->Name());
        // Without InferShape an output takes the shape given on the command line, else the
        // first input's.
        auto givenShape = req.outputShapes.find(p->Name());
        io.outShapes.push_back(givenShape != req.outputShapes.end() ? gert::StorageShape(givenShape->second) : firstShape);
        io.outDescs.emplace_back(combos > 0 ? typeAt(*p, combo) : ge::DT_UNDEFINED);
    }

    // Attributes in definition order.
    std::vector<std::string> attrNames;
    for (const auto& a : def->AscendcAttrs()) attrNames.push_back(a->Name());
    for (const auto& kv : req.attrs) {
        bool known = false;
        for (const auto& n : attrNames) known = known || n == kv.first;
        if (!known) {
            Fail("--attr " + kv.first + ": " + type + " has no attribute of that name (attributes: " + Join(attrNames) + ")");
        }
    }
    std::vector<gert::AttrValue> attrs;
    for (const auto& a : def->AscendcAttrs()) {
        if (!a->KindSet()) {
            Fail("attribute " + a->Name() + " of " + type + " has no type (call .Int(), .Float(), .Bool(), .String() or a List form)");
        }
        const std::string* text = nullptr;
        for (const auto& kv : req.attrs) {
            if (kv.first == a->Name()) text = &kv.second;
        }
        if (text != nullptr) {
            attrs.push_back(ParseAttr(*a, *text));
        } else if (a->HasDefault()) {
            attrs.push_back(a->Value());
        } else {
            Fail("attribute " + a->Name() + " of " + type + " (" + gert::AttrKindName(a->Value().kind) +
                 ") has no default: give it with --attr " + a->Name() + "=VALUE");
        }
    }
    io.attrs = gert::RuntimeAttrs(attrs);

    // Host functions: from the definition, else from IMPL_OP_OPTILING / IMPL_OP.
    optiling::detail::OpImpl impl;
    auto found = optiling::detail::OpImpls().find(type);
    if (found != optiling::detail::OpImpls().end()) impl = found->second;
    auto tilingFunc = def->AscendcAICore().Tiling() ? def->AscendcAICore().Tiling() : impl.tiling;
    auto inferShape = def->AscendcInferShape() ? def->AscendcInferShape() : impl.inferShape;
    auto inferDataType = def->AscendcInferDataType() ? def->AscendcInferDataType() : impl.inferDataType;

    if (inferShape != nullptr) {
        gert::InferShapeContext ctx(&io);
        ge::graphStatus st = inferShape(&ctx);
        if (st != ge::GRAPH_SUCCESS) {
            Fail("InferShape of " + type + " returned " + std::to_string(st) + " (not GRAPH_SUCCESS)");
        }
        for (auto& s : io.outShapes) s.MutableStorageShape() = s.GetOriginShape();
    }
    if (inferDataType != nullptr) {
        gert::InferDataTypeContext ctx(&io);
        ge::graphStatus st = inferDataType(&ctx);
        if (st != ge::GRAPH_SUCCESS) {
            Fail("InferDataType of " + type + " returned " + std::to_string(st) + " (not GRAPH_SUCCESS)");
        }
    }
    for (size_t i = 0; i < io.outShapes.size(); ++i) {
        if (io.outShapes[i].GetStorageShape().GetShapeSize() < 0) {
            Fail("output " + io.outNames[i] + " of " + type + " has shape " + ShapeText(io.outShapes[i].GetStorageShape()) +
                 " after InferShape: every dimension must be known");
        }
    }

    if (tilingFunc == nullptr) {
        Fail(type + " registers no TilingFunc (AICore().SetTiling(...) in its OpDef)");
    }
    fe::PlatFormInfos platformCopy = platform;
    std::shared_ptr<void> compileInfo = RunTilingParse(type, impl, &platformCopy);
    gert::TilingContext ctx(&io, &platformCopy, kTilingCapacity);
    ctx.AscendcSetCompileInfo(compileInfo.get(), impl.compileInfoSize);
    std::fill(ctx.GetRawTilingData()->Bytes().begin(), ctx.GetRawTilingData()->Bytes().end(), kUnwritten);
    ge::graphStatus st = tilingFunc(&ctx);
    if (st != ge::GRAPH_SUCCESS) {
        Fail("the TilingFunc of " + type + " failed: it returned " + std::to_string(st) + " (not GRAPH_SUCCESS)");
    }
    if (!ctx.BlockDimSet()) {
        Fail("the TilingFunc of " + type + " set no block dim (call context->SetBlockDim(n) with n > 0)");
    }
    size_t declared = ctx.GetRawTilingData()->GetDataSize();
    const auto& bytes = ctx.GetRawTilingData()->Bytes();
    size_t written = bytes.size();
    while (written > declared && bytes[written - 1] == kUnwritten) --written;
    if (written > declared) {
        Fail("the TilingFunc of " + type + " wrote tiling bytes up to offset " + std::to_string(written) + " but declared " +
             std::to_string(declared) + " bytes (GetRawTilingData()->SetDataSize(tiling.GetDataSize()))");
    }

    // The tiling class the kernel reads.
    auto cls = optiling::detail::TilingClasses().find(type);
    std::unique_ptr<optiling::TilingDef> tiling;
    if (cls != optiling::detail::TilingClasses().end()) {
        tiling = cls->second.make();
        if (declared < tiling->GetDataSize()) {
            Fail("the TilingFunc of " + type + " declared " + std::to_string(declared) + " tiling bytes, but its tiling struct " +
                 tiling->GetTilingClassName() + " has " + std::to_string(tiling->GetDataSize()) +
                 " (GetRawTilingData()->SetDataSize(tiling.GetDataSize()))");
        }
    }
    if (!req.tilingFile.empty()) {
        std::ofstream out(req.tilingFile, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(declared));
        if (!out) {
            Fail("cannot write " + req.tilingFile);
        }
    }

    // The report, in a file: what the host functions print goes to stdout unmixed.
    std::ostringstream report;
    report << "op " << type << "\n";
    if (config != nullptr && !config->opFile.empty()) report << "kernel_file " << config->opFile << "\n";
    for (size_t i = 0; i < ins.size(); ++i) {
        const gert::AnchorInstanceInfo& a = io.irInputs[i];
        int dt = a.GetInstanceNum() > 0 ? static_cast<int>(io.inDescs[a.GetInstanceStart()].GetDataType()) : -1;
        if (ins[i]->Type() == ops::DYNAMIC) {
            report << "input_list " << ins[i]->Name() << " " << dt << " " << a.GetInstanceNum() << "\n";
        } else {
            report << "input " << ins[i]->Name() << " " << dt << "\n";
        }
    }
    for (size_t i = 0; i < io.outNames.size(); ++i) {
        const gert::Shape& s = io.outShapes[i].GetStorageShape();
        report << "output " << io.outNames[i] << " " << static_cast<int>(io.outDescs[i].GetDataType()) << " " << s.GetDimNum();
        for (size_t d = 0; d < s.GetDimNum(); ++d) report << " " << s.GetDim(d);
        report << "\n";
    }
    report << "block_dim " << ctx.GetBlockDim() << "\n";
    report << "tiling_key " << ctx.GetTilingKey() << "\n";
    tpl::Report(report, type, ctx.GetTilingKey());
    size_t ws = 0;
    for (size_t w : ctx.WorkspaceSizes()) ws += w;
    report << "workspace " << ws << "\n";
    report << "tiling_size " << declared << "\n";
    if (tiling) {
        report << "tiling_class " << tiling->GetTilingClassName() << "\n";
        std::set<std::string> done;
        PrintStruct(report, *tiling, done);
    }
    std::ofstream rf(req.reportFile);
    rf << report.str();
    if (!rf) {
        Fail("cannot write the report " + req.reportFile);
    }
    return 0;
}

}  // namespace
}  // namespace ascendc_host

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s REQUEST (run by `ascendc op run`)\n", argv[0]);
        return 2;
    }
    return ascendc_host::Run(argv[1]);
}
